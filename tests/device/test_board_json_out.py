# JSON written a piece at a time (board/json_out.py), on both runtimes: the bytes are the
# runtime's own json.dumps(...).encode() (the independent writer they are checked against), into a
# window of another buffer (the ledger's blocks, in the journal) or a buffer at a time into a port
# (the console's answers).
# mp-heap: 256K
import json

from board.json_out import JsonOut

STATE = {"m": {"coin_in": 1234567890, "games_played": 3}, "credits": 16, "lock": None, "tilts": {"rng": 'a "quoted" x'},
         "game": {"phase": "wager", "deck": "ff" * 53}, "basis": ["casino", 25], "ok": True, "l": [[], {}]}


def test_a_window_of_a_buffer_holds_the_same_bytes_as_dumps():
    out = JsonOut(0)
    buf = bytearray(b"#" * 1000)
    text = json.dumps(STATE).encode()
    assert out.into(STATE, buf, 10, 900) == len(text)
    assert bytes(buf[10:10 + len(text)]) == text
    assert buf[:10] == b"#" * 10 and buf[10 + len(text):] == b"#" * (990 - len(text))  # nothing outside it
    assert out.into([1, 2], buf, 0, 1000) == 6 and bytes(buf[:6]) == b"[1, 2]"  # from its start again


def test_a_text_longer_than_the_window_is_counted_not_written_past_it():
    out = JsonOut(0)
    buf = bytearray(b"#" * 64)
    text = json.dumps(STATE).encode()
    assert out.into(STATE, buf, 8, 24) == len(text)  # more than the window: the store refuses it
    assert buf[:8] == b"#" * 8 and buf[24:] == b"#" * 40
    assert out.into({"a": 1}, buf, 8, 24) == 8 and bytes(buf[8:16]) == b'{"a": 1}'  # the next one fits


def test_through_a_preallocated_stream_the_same_bytes_and_lengths():
    import sys

    out = JsonOut(0, native=64)
    assert (out._native is not None) == (sys.implementation.name == "micropython")  # CPython: write()
    text = json.dumps(STATE).encode()  # longer than the stream's 64 bytes: it grows, once
    buf = bytearray(b"#" * 1000)
    assert out.into(STATE, buf, 10, 900) == len(text) and bytes(buf[10:10 + len(text)]) == text
    assert buf[:10] == b"#" * 10 and buf[10 + len(text):] == b"#" * (990 - len(text))
    assert out.into([1, 2], buf, 500, 1000) == 6 and bytes(buf[500:506]) == b"[1, 2]"  # not the longer text's tail
    buf[:] = b"#" * 1000
    assert out.into(STATE, buf, 8, 24) == len(text)  # too long for the window: counted, nothing past it
    assert buf[:8] == b"#" * 8 and buf[24:] == b"#" * 976


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
