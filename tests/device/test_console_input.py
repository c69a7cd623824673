# The console's line discipline (issue 9, faults 14 and 15) on a fake UART, and the emulated board's
# console UART itself: input lost in an RX overrun is reported and its line discarded (two commands
# never merge), an over-long line or a noisy one is refused whole, every line end gets one prompt,
# and a second console client is turned away while the first carries on.
from console_lines import Uart, console, feed

from board import emulated

PROMPT = b"jeton> "


def lines_of(tx):
    return [s for s in bytes(tx).replace(PROMPT, b"").decode().split("\r\n") if s]


def test_every_line_end_gets_one_prompt_and_crlf_is_one_line_end():
    r = feed(["68656c700d0a", "0d", "0a", "0a", "7374617465"])  # help CR LF, CR, LF, LF, 'state' unended
    assert r == {"ran": ["help"], "prompts": 3, "lost": []}  # CR LF split across reads is still one


def test_backspace_edits_and_noise_refuses_the_line():
    con, ran = console()
    con.uart.rx.append(b"helx\x08p\rstatez\x7f\r")
    con.uart.rx.append(b"st\x1b[Aate\r" + bytes([0xC3, 0xA9]) + b"help\r")
    con.service()
    assert ran == ["help", "state"]
    assert lines_of(con.uart.tx) == ["error: byte 0x1b is not printable ASCII: line refused, nothing run",
                                      "error: byte 0xc3 is not printable ASCII: line refused, nothing run"]


def test_an_over_long_line_is_refused_whole_even_across_reads():
    con, ran = console()
    con.uart.rx.append(b"a" * 60)
    con.service()
    con.uart.rx.append(b"b" * 21 + b"\n" + b"c" * 80 + b"\n")
    con.service()
    assert ran == ["c" * 80]
    assert lines_of(con.uart.tx)[0] == "error: line longer than 80 characters: refused, nothing run"
    assert bytes(con.uart.tx).count(PROMPT) == 2


class Conn:
    """A socket end the emulated UART reads: queued chunks, then 'nothing waiting' (EAGAIN)."""

    def __init__(self, *chunks):
        self.chunks = list(chunks)
        self.sent = b""
        self.closed = False

    def recv(self, n):
        if not self.chunks:
            raise OSError(11)  # EAGAIN: nothing waiting
        c = self.chunks.pop(0)
        if len(c) > n:
            self.chunks.insert(0, c[n:])
            c = c[:n]
        return c

    def send(self, data):
        self.sent += bytes(data)
        return len(data)

    def close(self):
        self.closed = True


def console_uart():
    return emulated.Uart(0, emulated.CONSOLE_RX, emulated.CONSOLE_BUSY)  # port 0: any free port


def test_an_overrun_discards_the_broken_line_instead_of_merging_two_commands():
    # issue 9 fault 15: the line end of '...Q' lost while the ccTalk driver waited, then
    # 'unknown command Qversion'. Here the FIFO fills with commands and 'mem Q'; its line end
    # finds no room; 'version' arrives after the console read the FIFO. Merged, 'mem Qversion'
    # would run 'mem'.
    u = console_uart()
    first = b"state\n" + b"help\n" * 49 + b"mem Q"
    assert len(first) == emulated.CONSOLE_RX
    conn = Conn(first, b"\n")
    u.on_accept(conn)
    u.on_readable(conn)  # board.idle() during a ccTalk wait: the FIFO fills ...
    u.on_readable(conn)  # ... and the next byte is lost
    assert u.overruns == 1
    con, ran = console(u)
    con.service()
    conn.chunks.append(b"version\n")
    con.service()
    assert ran == ["state"] + ["help"] * 49  # never 'mem Qversion', never a part of it
    assert lines_of(conn.sent) == ["error: input lost (1 bytes, receive buffer overrun): line discarded, "
                                   "nothing run; send it again"]
    assert conn.sent.count(PROMPT) == 51
    conn.chunks.append(b"version\n")
    con.service()
    assert ran[-2:] == ["help", "version"]  # the next line is whole again
    u.srv.close()


def test_a_full_fifo_keeps_every_place_input_was_lost():
    u = console_uart()
    size = emulated.CONSOLE_RX
    conn = Conn(b"x" * size, b"lost1\n", b"lost2\n")
    u.on_accept(conn)
    for _ in range(3):
        u.on_readable(conn)
    assert u.overruns == 12 and u.take_overrun() == 0  # not at the head yet
    buf = bytearray(size + 10)
    assert u.readinto(buf) == size  # up to the loss, not past it
    assert u.take_overrun() == 12 and u.take_overrun() == 0
    u.srv.close()


def test_a_second_console_client_is_told_busy_and_the_first_carries_on():
    # issue 9 fault 14: the second connection replaced the first one's cable
    u = console_uart()
    first = Conn()
    u.on_accept(first)
    second = Conn()
    u.on_accept(second)
    u.reap()
    assert second.sent == b"" and not second.closed  # told once it speaks: a client clears its input as it opens
    second.chunks.append(b"help\n")
    u.reap()
    assert second.sent == b"console busy: one session at a time\r\n" and not second.closed
    u.linger_ms = 0  # (250 ms: a socket closed over bytes not yet read would reset, losing the busy line)
    u.reap()
    assert second.closed and second.chunks == []  # what it sent was read, then it was let go
    assert u.conn is first and u.conns == [first] and not first.closed
    u.write(b"jeton> ")
    assert first.sent == b"jeton> " and second.sent.endswith(b"time\r\n")
    first.chunks.append(b"")  # the first client hangs up: its close is read before the newcomer
    third = Conn()
    u.on_accept(third)
    assert first.closed and u.conn is third and not third.closed and third.sent == b""
    u.srv.close()


def test_the_ccTalk_uart_still_takes_a_new_cable():
    u = emulated.Uart(0)
    a, b = Conn(), Conn()
    u.on_accept(a)
    u.on_accept(b)
    assert a.closed and u.conn is b and b.sent == b""
    u.srv.close()


def test_a_long_line_goes_out_in_pieces_whole_and_in_order():
    # craps-83's French rules (one line of 830 bytes) once went out as one block: on a heap cut up
    # by the boot check, 'paytable fr' found no such piece with 42 KB free (docs/sas.md "Memory").
    # Each write is now at most SAY_PIECE characters (4 bytes each at most in UTF-8), the line whole.
    from firmware.console import SAY_PIECE

    writes = []

    class Tap(Uart):
        def write(self, data):
            writes.append(len(data))
            return Uart.write(self, data)

    con, _ = console(Tap())
    lines = ["Mise é" + "à%d " % i * 3 for i in range(5)] + ["Règle : é€ %d; " % i for i in range(90)]
    lines = [lines[0], "".join(lines[5:]), "x" * SAY_PIECE, "y" * (SAY_PIECE + 1), ""]
    assert len(lines[1].encode()) > 1500  # longer than the 830 bytes that found no piece
    for s in lines:
        con.say(s)
    assert max(writes) <= 4 * SAY_PIECE + 2
    assert bytes(con.uart.tx).decode().split("\r\n") == lines + [""]
