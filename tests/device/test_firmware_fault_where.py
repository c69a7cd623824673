# firmware/fault_where.py: the innermost frame of an exception, as a console reply names it (a
# command that ran out of memory says where), on both runtimes.
from firmware.fault_where import _short, where


def _inner():
    raise MemoryError("memory allocation failed, allocating 400 bytes")


def _outer():
    _inner()


def test_the_innermost_frame_is_named():
    try:
        _outer()
    except MemoryError as e:
        w = where(e)
    # the file from its room on (a frozen module's name or a source file's path), the line, the function
    assert w.startswith(" at tests/device/test_firmware_fault_where.py:") and w.endswith(" (_inner)"), w
    assert w.split(":")[1].split()[0] == "7", w  # the raise above


def test_paths_from_the_room_on():
    assert _short("rng/crypto/rsa.py") == "rng/crypto/rsa.py"
    assert _short("/srv/checkout/firmware/console.py") == "firmware/console.py"
    assert _short("C:\\jeton\\games\\reels.py") == "games/reels.py"
    assert _short("main.py") == "main.py"


def test_an_exception_never_raised_has_no_frame():
    assert where(MemoryError()) == ""
