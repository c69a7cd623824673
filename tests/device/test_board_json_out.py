# JSON written a piece at a time (board/json_out.py), on both runtimes: the bytes are the
# runtime's own json.dumps(...).encode() (the independent writer they are checked against), into a
# buffer allocated once (the ledger's state) or a buffer at a time into a port (the console's answers).
# mp-heap: 256K
import json

from board.json_out import JsonOut

STATE = {"m": {"coin_in": 1234567890, "games_played": 3}, "credits": 16, "lock": None, "tilts": {"rng": 'a "quoted" x'},
         "game": {"phase": "wager", "deck": "ff" * 53}, "basis": ["casino", 25], "ok": True, "l": [[], {}]}


def test_a_buffer_holds_the_same_bytes_as_dumps():
    out = JsonOut(1000)
    got = out.dumps(STATE)
    assert bytes(got) == json.dumps(STATE).encode()
    assert bytes(out.dumps([1, 2])) == b"[1, 2]"  # the buffer again, from its start
    assert bytes(out.dumps(STATE)) == json.dumps(STATE).encode()


def test_a_text_longer_than_the_buffer_is_whole_bytes_for_the_store_to_refuse():
    out = JsonOut(16)
    got = out.dumps(STATE)
    assert isinstance(got, bytes) and got == json.dumps(STATE).encode()
    assert bytes(out.dumps({"a": 1})) == b'{"a": 1}'  # and the next one fits again


def test_a_sink_gets_the_text_a_buffer_at_a_time():
    pieces = []
    out = JsonOut(32, lambda b: pieces.append(bytes(b)))
    out.send(STATE)
    assert b"".join(pieces) == json.dumps(STATE).encode()
    # every piece but one longer than the buffer (a string written as one piece) is at most 32 bytes
    assert [p for p in pieces if len(p) > 32] in ([], [b'"' + b"f" * 106 + b'"']), pieces
    assert len(pieces) >= 6  # 312 bytes: never gathered into one string
    pieces.clear()
    out.send([])
    assert pieces == [b"[]"]
