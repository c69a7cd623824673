# The first administrator's enrolment after a lost security memory (firmware/console_access.py), its
# RSA-3072 check in a heap in pieces, as a vlt's 128K heap is after a power-up and some play. Its own
# module: the heap is filled and put in pieces, which no other test should share.
# mp-heap: 1024K  (as test_firmware_operator.py, whose machine and enrolments it uses)
import sys

from heap_pieces import in_pieces, pieces_back, room_for
from test_firmware_operator import enrol_lines, image_key, key_on, lost_console, type_enrolment

from firmware.console_access import ENROL_RESERVE
from firmware.fault_where import where

PAIRS = 1400  # holes of 384 bytes to fill a 1024K heap whole (1400 x 768 bytes is more than it has)
if sys.implementation.name == "micropython":
    room_for(PAIRS)  # the lists that hold the pieces, before the machines fill the heap


@image_key
def test_an_enrolment_is_checked_in_a_heap_in_pieces_smaller_than_its_numbers():
    # make fuzz seed 33487079: a vlt's heap in pieces, 19 KB free and none of ~420 bytes; the check's
    # numbers (rng/crypto/rsa.py mulmod) got none two runs in six. The piece kept whole from
    # power-up (Console.keep_enrol_reserve) is given to the check; without it, out of memory there.
    # The heap is put in pieces just before the last signature line is taken (what the console does
    # with a line it is typed needs pieces of 512 bytes, which the board's heap had then).
    # make fuzz seed 944118568 (vlt sicbo-83, 17600 bytes free) ran out there all the same: the books'
    # text stream, the other piece made at power-up (Ledger.lend_stream), is lent to the check too.
    mp = sys.implementation.name == "micropython"  # CPython's heap is not the board's: the enrolment alone
    # without either piece, without the reserve (MicroPython only), a signature for another board,
    # then the right one
    for case in ("none", "stream", "wrong", "right") if mp else ("wrong", "right"):
        lines = enrol_lines("board 2 boss" if case == "wrong" else "board 1 boss")
        con, cab, board, users, _ = lost_console()
        key_on(board, cab)
        con.keep_enrol_reserve()
        assert len(con.enrol_reserve) == ENROL_RESERVE
        if case in ("none", "stream"):
            con.enrol_reserve = None
        if case == "none":
            cab.ledger.lend_stream(True)
        assert type_enrolment(con, "boss", 1, lines[:-1]) == ["signature line 12 of 12:"]
        fn, _, *args = con._ask  # what the console does with the next line
        failed = None
        if mp:
            assert in_pieces(hole=384, pairs=PAIRS) >= 100  # until the heap is full
        try:
            fn(*args, lines[-1])
        except (MemoryError, ValueError) as e:
            failed = e  # read once the heap is whole again
        finally:
            if mp:
                pieces_back()
        if case in ("right", "stream"):
            assert failed is None and users.listing() == [("boss", "administrator")], failed
            assert con.enrol_reserve is None  # an account now: nothing kept for another
        elif case == "wrong":  # refused; the piece back in one piece, for the next try
            assert str(failed).startswith("not an enrolment the operator signed"), failed
            assert users.empty() and len(con.enrol_reserve) == ENROL_RESERVE
        else:
            w = where(failed)
            assert isinstance(failed, MemoryError) and w.startswith(" at rng/crypto/rsa.py:") and w.endswith("(mulmod)"), w
            assert users.empty() and board.floor("enrol").read() is None  # nothing changed: the number still good
        con = cab = board = users = None  # the next case's cabinet in this heap


@image_key
def test_the_books_stream_is_lent_to_the_check_and_made_again():
    import firmware.enrolment as enrolment

    mp = sys.implementation.name == "micropython"
    lines = enrol_lines("board 1 boss")
    con, cab, board, users, _ = lost_console()
    key_on(board, cab)
    assert (cab.ledger._json._native is not None) == mp  # CPython: no preallocated stream at all
    real, seen = enrolment.verify, []

    def verify(*args):
        seen.append(cab.ledger._json._native)
        return real(*args)

    enrolment.verify = verify
    try:
        assert type_enrolment(con, "boss", 1, lines)[-1].startswith("administrator boss enrolled")
    finally:
        enrolment.verify = real
    assert seen == [None] and users.listing() == [("boss", "administrator")]
    assert (cab.ledger._json._native is not None) == mp  # the heap whole: made again
