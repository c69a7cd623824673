# The SAS wire seen from the gaming machine: bytes in, frames out, replies back. Framing only; what
# a poll means is the machine's (firmware/sas/), which it gives as `host` (see SasLink).
#
# SAS 6.02 (figures as cited by the public host implementations named in docs/sas.md):
#   s. 1.2   19.2 kbaud, 11-bit characters; the host sets the 9th ("wakeup") bit on the first byte of
#            each message, the machine never sets it on what it sends (s. 1.2.1)
#   s. 2.2.1 general poll: one byte, 0x80 | address; the answer is one exception code (00: none)
#   s. 2.2.2 long polls: R (address, command), S (address, command, data, CRC), M (address, command,
#            length, data, CRC); the reply echoes address and command; CRC-16/KERMIT, LSB first
#   s. 2.3.2 at most 5 ms between the bytes of one message; the machine starts its reply within 20 ms
#   s. 4.1   busy: address then a 00 command, no CRC (s. 5.2): the host asks again later
#   s. 4.2   no poll for 5 s: the loop is broken (link down); the machine "chirps" its address
# On a board with a 9-bit UART (`nine_bit`: each character is two bytes, the 9th bit in the second)
# the wakeup bit starts a message. A pseudo-terminal (the emulated board) carries no 9th bit: there a
# message starts with the first byte after a silence of `gap_ms`, or after a complete message.
from board.compat import const, ticks_diff
from board.sas_crc import crc16

POLL = const(0x80)  # general poll bit; also the NACK bit of an answer (0x80 | address)
R = const(0)  # long poll types (firmware/sas/polls.py TABLE)
S = const(1)
M = const(2)
G = const(4)  # with the type: the command is also taken from address 0 (a broadcast: no answer)
ACK = const(-1)  # a handler's answer: the address alone (the command is taken)
NACK = const(-2)  # 0x80 | address: the command is refused (firmware/sas/polls.py says when)
BUSY = const(-3)  # address, 00, no CRC: not now, asked again later (s. 4.1; s. 5.2: no CRC on it)
RX_MAX = const(198)  # longest poll taken: 86 with 32 levels (length C1); a longer one is skipped
TX_MAX = const(96)  # longest reply: address, command, 90 bytes of data, CRC
INTER_BYTE_MS = const(5)  # s. 2.3.2 (a 9-bit board times nothing: the wakeup bit frames)
LINK_DOWN_MS = const(5000)  # s. 4.2
CHIRP_MS = const(200)  # while the link is down: our address, so a host can find us (Jeton's pace)
_IDLE = const(0)  # framer: waiting for an address byte
_OURS = const(1)  # a long poll to us: collecting
_SKIP = const(2)  # a message for someone else, an unknown or oversized one: skipped to its end


class SasLink:
    """host gives: spec(cmd) -> (type, data length, ...) or None (unknown); long_poll(cmd, frame, n, out)
    -> n data bytes written at out[2:], ACK, NACK, BUSY or None (no answer); general_poll(out) -> exception
    code, or 0x100 | n: a long reply owed (its command at out[1], n data bytes after it);
    link_changed(up) on each change of the link's state."""

    def __init__(self, uart, address, clock, host, gap_ms=INTER_BYTE_MS, nine_bit=False):
        if not 1 <= address <= 127:
            raise ValueError("SAS address %r outside 1-127" % (address,))
        self.uart = uart
        self.address = address
        self.clock = clock
        self.host = host
        self.gap_ms = gap_ms
        self.nine_bit = nine_bit
        self._in = bytearray(64)  # one UART read
        self._rx = bytearray(RX_MAX)  # the message being framed
        self._n = 0
        self._need = 0  # its whole length once known (0: not yet)
        self._state = _IDLE
        self._tx = bytearray(TX_MAX)  # the last reply, kept for a repeated poll
        self._tx_n = 0
        self._req = bytearray(RX_MAX)  # the long poll it answered
        self._req_n = 0
        self._one = bytearray(1)
        self._done = False  # a message to us was answered: the rest of its burst is dropped
        self._global = False  # the message being framed is to address 0 (every machine)
        self._pair = bytearray(2)
        now = clock()
        self._last_byte = now
        self._last_poll = now
        self.up = False  # a valid poll to us within LINK_DOWN_MS
        self._chirped = now
        # counts a test or the console reads: polls answered, and what was ignored
        self.polls = 0
        self.general = 0
        self.crc_errors = 0
        self.broken = 0  # messages cut short by a silence or a wakeup bit, and oversized ones
        self.unknown = 0
        self.repeats = 0
        self.acks = 0
        self.tx_lost = 0
        self.broadcasts = 0  # messages to address 0 taken
        # what the port holds already came while the machine was off or booting: polls whose host
        # has given up. Answered now, a reply would reach a later poll's reader (one exception taken
        # as the answer, the next one flushed by the host and lost)
        self._drop_input()

    # --- receive ---------------------------------------------------------------------------------
    def service(self):
        """Read what the UART holds, answer what is complete; time out a broken message; keep the
        link state and chirp while it is down. Never blocks, allocates nothing per byte."""
        now = self.clock()
        buf = self._in
        while True:
            try:
                n = self.uart.readinto(buf)
            except OSError:
                n = None  # a pseudo-terminal with no host on it yet
            if not n:
                break
            if self.nine_bit:
                for i in range(0, n - 1, 2):
                    self._byte(buf[i], buf[i + 1] & 1, now, buf, n, i + 2)
            else:
                self._done = False
                for i in range(n):
                    self._byte(buf[i], -1, now, buf, n, i + 1)
                    if self._done:
                        break  # what follows an answered message in the same burst is no message (saspy's "54 00")
        if self._state != _IDLE and not self.nine_bit and ticks_diff(now, self._last_byte) > self.gap_ms:
            self._end_of_message()
        if self.up and ticks_diff(now, self._last_poll) > LINK_DOWN_MS:
            self.up = False
            self.host.link_changed(False)
        if not self.up and ticks_diff(now, self._last_byte) >= CHIRP_MS and ticks_diff(now, self._chirped) >= CHIRP_MS:
            self._chirped = now
            self._one[0] = self.address
            self._send(self._one, 1, 1)

    def silent(self):
        """Address 0: whatever comes is read and dropped, nothing is answered, no chirp (SAS 6.02
        s. 2.1: a machine whose critical memory failed takes address 0 until it is set up again)."""
        self._drop_input()
        self._state = _IDLE
        self._n = 0
        self._req_n = 0

    def _drop_input(self):
        while True:
            try:
                n = self.uart.readinto(self._in)
            except OSError:
                n = None  # a pseudo-terminal with no host on it yet
            if not n:
                return

    def _byte(self, b, mark, now, buf, n, nxt):
        """One character; mark: its 9th bit (1/0), or -1 when the wire carries none."""
        if mark == 1 or (mark < 0 and self._state != _IDLE and ticks_diff(now, self._last_byte) > self.gap_ms):
            self._end_of_message()  # the wakeup bit, or a silence, starts a new message
        self._last_byte = now
        st = self._state
        if st == _SKIP:
            return
        if st == _IDLE:
            if b & POLL:
                if (b & 0x7F) != self.address:
                    self._other()
                elif nxt < n and buf[nxt] == self.address:
                    pass  # a general-poll byte as a long poll's wakeup (saspy's poll_address): not a poll
                else:
                    self._general_poll(now)
                return
            self._global = b == 0
            if b != self.address and not self._global:
                self._other()
                self._state = _SKIP  # its command and data are not addressed to us
                return
            self._rx[0] = b
            self._n = 1
            self._need = 0
            self._state = _OURS
            return
        rx = self._rx
        k = self._n
        if k >= RX_MAX:
            self.broken += 1
            self._state = _SKIP
            return
        rx[k] = b
        self._n = k = k + 1
        if k == 2:
            if b == POLL | self.address and not self.nine_bit:
                self._end_of_message()  # no 9th bit: our address then our general poll is an ACK, then a poll
                self._general_poll(now)
                return
            spec = self.host.spec(b)
            if spec is None or (self._global and not spec[0] & G):
                if self._global:
                    self._other()  # a broadcast we do not take: a poll to others all the same
                else:
                    self.unknown += 1
                self._state = _SKIP
                return
            kind = spec[0] & 3  # (type | G, data length, ...): firmware/sas/polls.py TABLE
            self._need = 2 if kind == R else 2 + spec[1] + 2 if kind == S else 0
        elif k == 3 and self._need == 0:
            self._need = 3 + b + 2  # type M: the length byte counts what follows it, CRC excluded
            if self._need > RX_MAX:
                self.broken += 1
                self._state = _SKIP
                return
        if self._need and k == self._need:
            self._state = _IDLE
            self._n = 0
            self._long_poll(k, now)

    def _end_of_message(self):
        if self._state == _OURS:
            if self._n == 1:
                self.acks += 1  # our address alone: the host's ACK of the last reply
                self._req_n = 0
            else:
                self.broken += 1  # cut short: never taken for a command
        self._state = _IDLE
        self._n = 0

    def _other(self):
        self._req_n = 0  # the host has gone on (to another machine): implied ACK of our last reply

    # --- answer ------------------------------------------------------------------------------------
    def _valid(self, now):
        self._last_poll = now
        if not self.up:
            self.up = True
            self.host.link_changed(True)

    def _general_poll(self, now):
        self._valid(now)
        self._req_n = 0  # implied ACK of the last long poll's reply
        self.general += 1
        code = self.host.general_poll(self._tx)
        if code > 0xFF:  # a long poll's reply the machine owes (21's signature), written at _tx[1:]
            self._finish(code & 0xFF)
            return
        self._one[0] = code
        self._send(self._one, 1)

    def _long_poll(self, k, now):
        rx = self._rx
        if self._need > 2:  # types S and M carry a CRC, least significant byte first
            crc = crc16(rx, 0, k - 2)
            if rx[k - 2] != crc & 0xFF or rx[k - 1] != crc >> 8:
                self.crc_errors += 1
                return
        if self._global:  # a broadcast (80/86 from address 0): carried out, never answered
            self._other()
            self.broadcasts += 1
            self.host.long_poll(rx[1], rx, k, self._tx)
            return
        self._valid(now)
        req = self._req
        if self._req_n == k and _same(req, rx, k):
            self.repeats += 1  # the host did not get our reply: the same one again, not done twice
            self._send(self._tx, self._tx_n)
            return
        for i in range(k):
            req[i] = rx[i]
        self._req_n = k
        tx = self._tx
        r = self.host.long_poll(rx[1], rx, k, tx)
        self.polls += 1
        if r is None:
            self._req_n = 0
            return
        if r == BUSY:  # not carried out: the same poll again is asked anew, not answered from _tx
            self._req_n = 0
            tx[0] = self.address
            tx[1] = 0
            self._tx_n = 2
        elif r == ACK or r == NACK:
            tx[0] = self.address | (POLL if r == NACK else 0)
            self._tx_n = 1
        else:
            tx[1] = rx[1]
            self._finish(r)
            return
        self._send(tx, self._tx_n)

    def _finish(self, r):
        """Send the reply whose command is at _tx[1] and r data bytes after it, with its CRC."""
        tx = self._tx
        tx[0] = self.address
        end = 2 + r
        crc = crc16(tx, 0, end)
        tx[end] = crc & 0xFF
        tx[end + 1] = crc >> 8
        self._tx_n = end + 2
        self._send(tx, self._tx_n)

    def _send(self, buf, n, mark=0):
        self._done = True
        """mark: the 9th bit of the first character (a chirp's); what the machine sends has none."""
        try:
            if self.nine_bit:  # two bytes a character, the 9th bit in the second
                pair = self._pair
                w = 0
                for i in range(n):
                    pair[0] = buf[i]
                    pair[1] = mark if i == 0 else 0
                    w += (self.uart.write(pair) or 0) // 2
            else:
                w = self.uart.write(memoryview(buf)[:n])
        except OSError:
            w = None  # nobody on the line, or its buffer full: lost, as on a wire
        if w != n:
            self.tx_lost += 1


def _same(a, b, k):
    for i in range(k):
        if a[i] != b[i]:
            return False
    return True
