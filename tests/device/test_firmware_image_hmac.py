# The program read back through the board (firmware/image_hmac.py) and the console's `verify SEED`:
# HMAC-SHA256 keyed by the seed over every byte of the image, streamed in pieces; known answers
# from RFC 4231 section 4.8 (test case 7: a 131-byte key, a 152-byte message).
# mp-heap: 1024K  (the console test's cabinet on a fake board, with its ledger and security memory images in RAM)
from devtest import raises

from firmware import image_hmac
from rng.crypto.hmac_sha256 import hmac_sha256

RFC4231_7_KEY = b"\xaa" * 131
RFC4231_7_DATA = (b"This is a test using a larger than block-size key and a larger than block-size data."
                  b" The key needs to be hashed before being used by the HMAC algorithm.")
RFC4231_7_MAC = "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"


class Image:
    """A stored image that hands out at most `step` bytes a read (a flash driver's short reads)."""

    def __init__(self, data, step=7):
        self.data = data
        self.pos = 0
        self.step = step
        self.closed = False
        self.reads = 0

    def readinto(self, buf):
        if self.closed:
            raise OSError("read after close")
        n = min(len(buf), self.step, len(self.data) - self.pos)
        buf[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        self.reads += 1
        return n


    def close(self):
        self.closed = True


class Board:
    def __init__(self, data, step=7):
        self.img = Image(data, step)

    def image(self):
        return self.img


def hexs(b):
    return "".join("%02x" % x for x in b)


def test_the_mac_over_an_image_read_in_short_pieces_is_rfc4231s():
    b = Board(RFC4231_7_DATA)
    digest, n = image_hmac.mac(b, RFC4231_7_KEY)
    assert hexs(digest) == RFC4231_7_MAC and n == 152
    assert b.img.closed and b.img.reads > 152 // 7  # it really came in pieces, and the file is closed


def test_a_large_image_is_read_whole_in_bounded_pieces():
    data = bytes(range(256)) * 9 + b"end"  # 2307 bytes: several 512-byte pieces and a short last one
    b = Board(data, step=10000)
    digest, n = image_hmac.mac(b, b"\x01\x02")
    assert n == 2307 and digest == hmac_sha256(b"\x01\x02", data)  # streamed == one-shot (RFC-checked)
    assert b.img.reads == 6  # 4 full pieces, the short one, then the end


def test_one_changed_byte_changes_the_mac():
    data = bytearray(RFC4231_7_DATA)
    data[100] ^= 1
    digest, _ = image_hmac.mac(Board(bytes(data)), RFC4231_7_KEY)
    assert hexs(digest) != RFC4231_7_MAC


def test_the_image_is_closed_when_reading_fails():
    class Broken(Image):
        def readinto(self, buf):
            raise OSError(5)

    b = Board(b"")
    b.img = Broken(b"")
    with raises(OSError):
        image_hmac.mac(b, b"\x00")
    assert b.img.closed


def test_seeds():
    assert image_hmac.parse_seed("00ff") == b"\x00\xff"
    assert image_hmac.parse_seed("AB" * 32) == b"\xab" * 32
    for bad in ("", "a", "abc", "zz", "ab" * 33, "0x12"):
        with raises(ValueError):
            image_hmac.parse_seed(bad)


def test_console_verify_answers_and_logs_and_refuses_a_bad_seed():
    from test_firmware_console import console, run

    con, cab, board, _ = console()
    board.image = lambda: Image(RFC4231_7_DATA)
    assert run(con, "verify " + "aa" * 32) == [
        "hmac-sha256 %s over 152 bytes of the firmware image" % hexs(hmac_sha256(b"\xaa" * 32, RFC4231_7_DATA))]
    assert run(con, "verify 0g") == ["error: SEED must be hex digits (0-9, a-f)"]
    assert run(con, "verify") == ["error: usage: verify SEED (2 to 64 hex digits)"]
    assert run(con, "verify abc") == ["error: SEED is 2 to 64 hex digits, an even count"]
    events = run(con, "events")
    assert sum("verify" in e for e in events) == 1, events  # the answered one, not the refused ones
    assert cab.state is not None  # the cabinet carries on


def test_console_verify_on_a_board_that_cannot_read_its_image_back_says_so():
    from test_firmware_console import console, run

    con, cab, board, _ = console()  # the fake board keeps hal.Board's image(): not implemented
    out = run(con, "verify 00")
    assert len(out) == 1 and out[0].startswith("error: ") and out[0].endswith(": image()"), out
    assert run(con, "version")  # the console carries on
