# ccTalk coin acceptor: identification, set-up, and polling of header 229 ("read buffered credit
# or error codes"). Reply to 229: [event counter][A1][B1]...[A5][B5], newest first.
# A != 0: a coin was credited, A = coin position (1..16), B = sorter path.
# A == 0: B is an error/status code (board/cctalk_codes.py).
# Event counter: 0 only after power-up or reset; then 1..255, wrapping 255 -> 1 (never 0 again).
# What a reading proves (docs/drivers.md): the buffer holds 5 events, so only a forward step of
# 1..5 from the last reading can be matched with buffered events. Any other step is ambiguous: a
# step back of k reads exactly like a step forward of 255 - k (a replayed or stale reply), and a
# step beyond the buffer has lost events nobody can name. Such a counter is a fault that credits
# nothing: ("counter", was, now), acceptance is inhibited at once and stays inhibited (whatever
# enable() asks) until the firmware calls clear_fault(), and the counter is baselined again from
# two agreeing readings. A counter that moved is always read twice before anything is credited,
# so one replayed reply (k back, 250 <= k <= 254, looks like 1..5 forward) never credits either.
#
# Events appended to poll(out), oldest first, always 3-tuples (kind, a, b):
#   ("coin", position, path)       credit this coin
#   ("reject", 0, code)            coin returned, no credit
#   ("fault", 0, code)             jam / sensor / hardware fault (call an attendant)
#   ("fraud", 0, code)             fraud attempt: tilt
#   ("status", 0, code)            null event, data block request
#   ("counter", was, now)          counter out of sequence (backwards, or beyond the buffer): tilt
#   ("reset", last, 0)             the device was reset or powered up (counter back to 0)
#
# service(out) is poll(out) for the cabinet's loop, never waiting (board/cctalk.py): it sends a
# reading and takes its reply in a later pass, None until the poll is complete. The readings, their
# order and what they prove are the same; poll() waits for them (set-up, tests, the console).
from board import cctalk_codes
from board.cctalk import CcTalkError, answers, ask
from board.compat import const

ADDR = const(2)
H_RESET = const(1)
H_READ_BUFFERED = const(229)
H_MASTER_INHIBIT = const(228)
H_SET_INHIBITS = const(231)
H_COIN_ID = const(184)
H_SERIAL = const(242)
H_PRODUCT = const(244)
H_CATEGORY = const(245)
H_MANUFACTURER = const(246)
H_SIMPLE_POLL = const(254)
EVENTS = const(5)  # the acceptor's event buffer depth
POSITIONS = const(16)
# what service() is reading
_NONE = const(0)
_BASE_A = const(1)  # the baseline's first reading
_BASE_B = const(2)  # ... its second
_READ_A = const(3)  # a poll's reading
_READ_B = const(4)  # ... read again: the counter moved
_INHIBITS = const(5)  # want(): 231 sent
_MASTER = const(6)  # want(): 228 sent


def new_events(last, counter):
    """How many events happened between two counter readings (0 -> reset, wraps 255 -> 1)."""
    if counter >= last:
        return counter - last
    return counter + 255 - last


def parse_coin_id(cid):
    """ccTalk coin id "CCvvvI" (country, value, issue): ("CA", 100, "T"); None if not a coin."""
    if len(cid) != 6 or cid[0] == "." or not cid[2:5].isdigit():
        return None
    return cid[0:2], int(cid[2:5]), cid[5]


class CoinAcceptor:
    READ = H_READ_BUFFERED  # the buffered-events header (a bill validator reads 159 the same way)
    WHAT = "acceptor"

    def __init__(self, bus, addr=ADDR, log=None):
        self.bus = bus
        self.addr = addr
        self.log = log
        self.last = None  # event counter of the previous poll (None: not baselined)
        self.fault = None  # "counter" once the counter was out of sequence: acceptance stays inhibited
        self.counter_faults = 0
        self._a = bytearray(1 + 2 * EVENTS)  # two readings, copied out of the bus's receive buffer
        self._b = bytearray(1 + 2 * EVENTS)
        self.on = False
        self.mask = 0xFFFF
        self.info = {}
        self._st = _NONE  # service()'s reading under way
        self._tok = 0  # its exchange on the bus (board/cctalk.py ask)
        self._was = 0  # the counter the poll under way started from
        self._sent_w = -1  # the acceptance last sent (231 and 228) as mask | on << 16; -1 unknown
        self._out_w = 0  # ... and the one under way
        self._cmd = bytearray(2)  # want()'s command data (231: the mask; 228: its first byte)
        self._cmd1 = memoryview(self._cmd)[:1]

    # --- identification ---------------------------------------------------------------------
    def present(self):
        self.bus.request(self.addr, H_SIMPLE_POLL)
        return True

    answers = answers  # a simple poll that never waits (board/cctalk.py): asked before a set-up that waits

    def category(self):
        return bytes(self.bus.request(self.addr, H_CATEGORY)).decode()

    def identify(self):
        """Equipment category, manufacturer, product, serial (24-bit, LSB first on the wire)."""
        r = self.bus.request
        info = {
            "category": bytes(r(self.addr, H_CATEGORY)).decode(),
            "manufacturer": bytes(r(self.addr, H_MANUFACTURER)).decode(),
            "product": bytes(r(self.addr, H_PRODUCT)).decode(),
        }
        s = r(self.addr, H_SERIAL)
        info["serial"] = s[0] | s[1] << 8 | s[2] << 16 if len(s) == 3 else None
        self.info = info
        return info

    def coin_ids(self):
        """{position: coin id string} for the 16 positions (header 184); empty ones skipped."""
        ids = {}
        for pos in range(1, POSITIONS + 1):
            cid = bytes(self.bus.request(self.addr, H_COIN_ID, bytes((pos,)))).decode()
            if parse_coin_id(cid):
                ids[pos] = cid
        return ids

    # --- set-up -----------------------------------------------------------------------------
    def begin(self):
        """Inhibit, then read the event counter as the baseline: no coin can slip in between."""
        self._abandon()
        self.enable(False)
        if self.last is None:
            self.poll([])  # two agreeing readings become the counter we count from; their events are not ours

    def enable(self, on, mask=0xFFFF):
        """Individual inhibits (231: bit set = position enabled) then master inhibit (228).

        While a fault is latched the acceptor stays inhibited whatever `on` says.
        """
        self.on = bool(on)
        self.mask = mask
        self._apply()

    def want(self, on, mask=0xFFFF):
        """enable() without waiting: service() sends 231 and 228 before its next reading (the loop's
        enable and inhibit; set-up and a latched fault still use enable())."""
        self.on = bool(on)
        self.mask = mask

    def _apply(self):
        if self._st == _INHIBITS or self._st == _MASTER:
            self._st = _NONE  # want()'s commands under way: this one (waiting) says it all
            self._tok = 0
        on = self.on and self.fault is None
        self._sent_w = -1  # unknown until both are answered
        self.bus.request(self.addr, H_SET_INHIBITS, bytes((self.mask & 0xFF, (self.mask >> 8) & 0xFF)))
        self.bus.request(self.addr, H_MASTER_INHIBIT, b"\x01" if on else b"\x00")
        self._sent_w = self.mask | on << 16

    def clear_fault(self):
        """The firmware (attendant) acknowledged the fault: acceptance may resume."""
        self.fault = None
        self._apply()

    def reset(self):
        """Software reset (header 1): the counter restarts at 0 and the device comes up inhibited."""
        self._abandon()
        self.bus.request(self.addr, H_RESET)
        self.last = 0

    # --- polling ----------------------------------------------------------------------------
    def _abandon(self):
        """Forget service()'s poll under way (a waiting call reads into the same buffers)."""
        if self._tok:
            self.bus.claim()
            self._tok = 0
        self._st = _NONE

    @staticmethod
    def _corroborates(a, b, d):
        """Reading b is reading a with d (1..EVENTS) newer events in front of the same buffer."""
        if not 0 < d < EVENTS:
            return False  # five newer (or none, or a counter gone back): nothing left to prove a by
        for i in range(1, 1 + 2 * (EVENTS - d)):
            if b[i + 2 * d] != a[i]:
                return False
        return True

    def _based(self):
        """A fresh baseline was taken (the bill validator keeps its reading)."""

    def _out_of_sequence(self, out, was, now):
        self.counter_faults += 1
        self.fault = "counter"
        self.last = None  # nothing after this reading is provable until two readings agree again
        out.append(("counter", was, now))
        if self.log:
            self.log("%s: event counter out of sequence: was %d, now %d" % (self.WHAT, was, now))
        try:
            self._apply()  # stop taking money now
        except CcTalkError:
            pass  # the fault stays latched: the next enable() inhibits again
        return 1

    def poll(self, out):
        """Append new events as (kind, a, b) to out, oldest first. Returns the number appended.
        Waits for the readings (idle)."""
        self._abandon()
        self.bus.claim()
        while True:
            n = self.service(out)
            if n is not None:
                return n
            self.bus.wait()

    def service(self, out):
        """poll() without waiting: None while its readings are under way (call it again in a later
        pass), then what poll() returns. A bus error ends the poll under way (the next starts over)."""
        try:
            while True:
                st = self._st
                if st == _NONE or st == _INHIBITS or st == _MASTER:
                    if not self._sent():
                        return None
                    # never baselined, or after a counter fault: two readings, nothing to credit
                    st = self._st = _BASE_A if self.last is None else _READ_A
                r = ask(self, self.READ)
                if r is None:
                    return None
                if len(r) != 1 + 2 * EVENTS:
                    raise CcTalkError("frame", self.READ)
                into = self._a if st == _BASE_A or st == _READ_A else self._b
                for i in range(1 + 2 * EVENTS):  # r is a view into the bus's receive buffer: copy it now
                    into[i] = r[i]
                n = self._taken(out, st)
                if n is not None:
                    self._st = _NONE
                    return n
        except CcTalkError:
            self._st = _NONE
            raise

    def _sent(self):
        """want()'s acceptance on the device (231 then 228, each taken in a later call): True once it
        is, None while under way. What changes meanwhile is sent again after."""
        c = self._cmd
        while True:
            if self._st == _INHIBITS:
                if ask(self, H_SET_INHIBITS, c) is None:
                    return None
                c[0] = self._out_w >> 16
                self._st = _MASTER
            if self._st == _MASTER:
                if ask(self, H_MASTER_INHIBIT, self._cmd1) is None:
                    return None
                self._st = _NONE
                self._sent_w = self._out_w
            w = self.mask | (self.on and self.fault is None) << 16
            if w == self._sent_w:
                return True
            self._out_w = w
            c[0] = w & 0xFF
            c[1] = (w >> 8) & 0xFF
            self._sent_w = -1  # unknown until both are answered
            self._st = _INHIBITS

    def _taken(self, out, st):
        """One reading taken: the poll's result, or None with the next reading to make in _st."""
        a = self._a
        if st == _BASE_A:
            self._st = _BASE_B
            return None
        if st == _BASE_B:
            if a == self._b:  # two agreeing readings: the counter we count from
                self.last = a[0]
                self._based()
            return 0
        if st == _READ_A:
            last = self.last
            counter = a[0]
            if counter == last:
                return 0
            if counter and new_events(last, counter) > EVENTS:
                return self._out_of_sequence(out, last, counter)  # backwards, or beyond the buffer
            # a provable step (1..5 forward, or 0 after a reset): confirmed by a second reading, so
            # that one stale or replayed reply is never taken for new events
            self._was = last
            self._st = _READ_B
            return None
        b = self._b
        last = self._was
        counter = a[0]
        if a != b:
            now = b[0]
            if not (counter and now and self._corroborates(a, b, new_events(counter, now))):
                # (a device comes up from a reset inhibited: no coin can follow a 0 that quickly)
                return self._out_of_sequence(out, counter, now)
            # coins landed between the two readings: the second holds the first's events behind
            # them, so the first is the acceptor's word; the newer ones are read at the next poll
            # (at the buffer's limit, waiting would have let them push the first's out of it)
        if counter == 0:
            # reset or power cycle: whatever happened since our last poll is unknowable, and
            # the device came back inhibited: restore what the firmware asked for
            out.append(("reset", last, 0))
            self.last = 0
            self._apply()
            return 1
        n = new_events(last, counter)
        self.last = counter
        for i in range(n - 1, -1, -1):  # oldest first
            out.append(self._event(a[1 + 2 * i], a[2 + 2 * i]))
        return n

    @staticmethod
    def _event(a, b):
        """One buffered event (result A, result B) as (kind, a, b)."""
        if a:
            return ("coin", a, b)
        return (cctalk_codes.kind(b), 0, b)
