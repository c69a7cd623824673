# ccTalk payout hopper with a persisted payout record, so that no coin is ever paid twice.
#
# Headers (ccTalk generic specification, part 2): 164 enable hopper ([0xA5] enables, anything
# else disables), 167 dispense hopper coins ([security bytes...][N coins]; reply empty or
# [event counter]), 166 request hopper status -> [event counter][payout coins remaining]
# [last payout: coins paid][last payout: coins unpaid], 163 test hopper -> flag registers,
# 168 request hopper dispense count -> 24-bit lifetime count (LSB first), 172 emergency stop ->
# [payout coins remaining], 1 reset device. The 166 event counter counts accepted dispense
# commands: 0 only after power-up/reset, then 1..255 wrapping to 1.
#
# The record (a dict the firmware persists through `store.load()` / `store.save(record|None)`)
#   {"ref": firmware's id, "n": coins requested, "paid": coins paid by finished chunks,
#    "c": current chunk size, "ctr": 166 counter before the chunk's 167, "cnt": 168 count
#    before the chunk (None if unsupported), "st": "armed" | "done" | "uncertain",
#    "out": coins paid (final), "unpaid": coins not paid (final)}
# Rule: the record is saved as "armed" BEFORE each 167 goes out, and 167 is never retried
# blindly: whether it was taken is read back from the hopper's own counters (166 counter moved
# by one: taken; unchanged with no reset in between: not taken, safe to send again). After a
# hopper power loss the 168 count (kept in the hopper's NV memory) says how many coins left;
# without it the "power down during payout" flag plus 166 paid/unpaid do; without either the
# result is "uncertain" and the firmware must hand-pay after an attendant check: never re-pay.
#
# Events appended by service(out), 3-tuples (kind, a, b):
#   ("paying", paid so far, coins remaining)  progress
#   ("payout", paid, unpaid)     final: unpaid > 0 is a partial payout (credits or hand-pay);
#                                repeated on every service() until the firmware calls settle()
#   ("uncertain", n, paid_known) final: the outcome cannot be proven: hand-pay lockup
#   ("extra", coins, 0)          coins came out that nobody asked for (runaway): tilt
#   (kind, flag bit, 0)          kind from board/hopper_codes.py for each newly set 163 flag
#
# service(out) never waits on the bus (board/cctalk.py; the cabinet's loop answers SAS within 20 ms):
# each reading (166 then 163 while paying; 168 then 163 while idle) is sent in one call and taken in
# a later one, and the 167 goes out without waiting for its reply, which is taken (only logged: the
# counters say whether it was taken) before the next reading. busy() stays True while a reading is
# under way, so the firmware calls service() again in its next pass. What each reading decides is as
# before; the rarer steps after a decision (a chunk's end, a power loss) still wait for their replies.
from board import hopper_codes
from board.cctalk import CcTalkError, answers, ask
from board.compat import const

ADDR = const(3)
H_RESET = const(1)
H_TEST = const(163)
H_ENABLE = const(164)
H_STATUS = const(166)
H_DISPENSE = const(167)
H_DISPENSE_COUNT = const(168)
H_EMERGENCY_STOP = const(172)
H_SERIAL = const(242)
H_CATEGORY = const(245)
ENABLE_CODE = const(0xA5)
MAX_CHUNK = const(255)
MAX_RESENDS = const(3)
# what service() awaits
_NONE = const(0)
_DISPENSE = const(1)  # the 167's reply (or its timeout)
_STATUS = const(2)  # paying: 166
_TEST = const(3)  # paying: 163
_COUNT = const(4)  # idle: 168
_FLAGS = const(5)  # idle: 163
_END = const(6)  # paying: 168 at a chunk's end


def next_counter(c):
    return 1 if c >= 255 else c + 1


class HopperError(Exception):
    def __init__(self, msg):
        super().__init__(msg)


class Hopper:
    """security: None -> 167 carries [N]; "serial" -> [serial lsb, mid, msb][N] (hoppers that
    check their own serial number); a function f(n) -> bytes -> [f(n)...][N] (8-byte cipher
    of hoppers with encryption; the algorithm is the manufacturer's and is not public)."""

    def __init__(self, bus, store, addr=ADDR, security=None, log=None):
        self.bus = bus
        self.store = store
        self.addr = addr
        self.security = security
        self.log = log
        self.record = None
        self.flags = 0
        self.has_count = True
        self.idle_count = None  # 168 count while idle: runaway coins show up as a change
        self._serial = None
        self._resends = 0
        self._dispense = bytearray(12)
        self._st = _NONE  # service()'s reading under way
        self._tok = 0  # its exchange on the bus
        self._stat = bytearray(4)  # the 166 reading of the step under way
        self._end_count = None  # the 168 count read at the payout's last chunk end (settle's idle baseline)

    # --- plain commands -----------------------------------------------------------------------
    def status(self):
        r = self.bus.request(self.addr, H_STATUS)
        if len(r) != 4:
            raise CcTalkError("frame", H_STATUS)
        return r[0], r[1], r[2], r[3]

    def test(self):
        self.flags = hopper_codes.flags_of(self.bus.request(self.addr, H_TEST))
        return self.flags

    def count(self):
        """Lifetime dispense count (168), or None when the hopper does not support it."""
        if not self.has_count:
            return None
        try:
            r = self.bus.request(self.addr, H_DISPENSE_COUNT)
        except CcTalkError as e:
            if e.reason != "nak":
                raise
            self.has_count = False
            return None
        if len(r) != 3:
            raise CcTalkError("frame", H_DISPENSE_COUNT)
        return r[0] | r[1] << 8 | r[2] << 16

    def enable(self, on=True):
        self.bus.request(self.addr, H_ENABLE, bytes((ENABLE_CODE if on else 0,)))

    def reset(self):
        """Software reset: clears the flags marked (R); the hopper comes back disabled."""
        self.bus.request(self.addr, H_RESET)

    def clear_faults(self):
        """After an attendant cleared the jam/fraud: software reset, enable, re-read the flags."""
        self.reset()
        self.enable(True)
        return self.test()

    def emergency_stop(self):
        """Stop the motor now (172); returns the coins the hopper had still to pay."""
        r = self.bus.request(self.addr, H_EMERGENCY_STOP)
        return r[0] if len(r) else 0

    answers = answers  # a simple poll that never waits (board/cctalk.py): asked before a set-up that waits

    # --- start-up ------------------------------------------------------------------------------
    def begin(self, out):
        """Identify, finish any payout left by a restart (events into out), clear, enable."""
        self._abandon()
        cat = bytes(self.bus.request(self.addr, H_CATEGORY)).decode()
        if cat != "Payout":
            raise HopperError("device at %d is %r, not a Payout" % (self.addr, cat))
        if self.security == "serial":
            s = self.bus.request(self.addr, H_SERIAL)
            self._serial = bytes(s)
        self.record = self.store.load()
        self.test()
        self._flag_events(out, 0)
        if self.record and self.record["st"] == "armed":
            while self._armed(out) is None:  # waiting: power-up, before the loop
                self.bus.wait()
        if self.flags & hopper_codes.NEEDS_RESET or self.flags & (1 << hopper_codes.POWER_UP):
            if not (self.record and self.record["st"] == "armed"):
                self.reset()
                self.test()
        if not (self.record and self.record["st"] == "armed"):
            self.idle_count = self.count()
        self.enable(True)

    # --- paying --------------------------------------------------------------------------------
    def busy(self):
        """A payout record is open, or a reading is under way: service() again in the next pass."""
        return self.record is not None or self._st != _NONE

    def _abandon(self):
        """Forget service()'s reading under way (a waiting command follows)."""
        if self._tok:
            self.bus.claim()
            self._tok = 0
        self._st = _NONE

    def payout(self, n, ref=0):
        """Start paying n coins for the firmware's transaction `ref`. The record is saved first."""
        if self.record is not None:
            raise HopperError("a payout record is still open")
        if self.flags & hopper_codes.NEEDS_RESET:
            raise HopperError("hopper fault latched: clear_faults() after an attendant check")
        if n <= 0:
            raise ValueError("payout of %d coins" % n)
        self._abandon()
        self.record = {"ref": ref, "n": n, "paid": 0, "c": 0, "ctr": 0, "cnt": None,
                       "st": "armed", "out": 0, "unpaid": 0}
        self._arm_chunk()

    def _arm_chunk(self):
        rec = self.record
        self._end_count = None  # only the last chunk's end is the payout's
        ctr = self.status()[0]
        rec["c"] = min(MAX_CHUNK, rec["n"] - rec["paid"])
        rec["ctr"] = ctr
        rec["cnt"] = self.count()
        rec["st"] = "armed"
        self.store.save(rec)  # persisted before the command can act
        self._resends = 0
        self._send(rec["c"])

    def _send(self, n):
        buf = self._dispense
        k = 0
        sec = self.security
        if sec == "serial":
            for b in self._serial:
                buf[k] = b
                k += 1
        elif sec is not None:
            for b in sec(n):
                buf[k] = b
                k += 1
        buf[k] = n
        bus = self.bus
        bus.claim()
        self._tok = bus.send(self.addr, H_DISPENSE, memoryview(buf)[:k + 1], retries=0)  # never repeated
        self._st = _DISPENSE  # its reply taken by service(), before the counters are read


    def service(self, out):
        """Poll the hopper (call it every main-loop pass while busy, now and then when idle)."""
        rec = self.record
        try:
            if rec is None:
                self._idle_check(out)
                return
            if rec["st"] == "armed":
                self._armed(out)
                return
        except CcTalkError:
            self._st = _NONE  # the next call starts the reading over
            raise
        if rec["st"] == "done":
            out.append(("payout", rec["out"], rec["unpaid"]))
        else:
            out.append(("uncertain", rec["n"], rec["out"]))

    def settle(self):
        """The firmware has committed the final result: forget the record."""
        self.record = None
        self.store.save(None)
        # the idle baseline: the count read at the chunk's end (a coin out since is a runaway the next
        # idle check reports), else read now
        cnt = self._end_count
        self._end_count = None
        self.idle_count = cnt if cnt is not None else self.count()

    def _armed(self, out):
        """One step of the payout under way: None while its readings are on the bus, else True."""
        rec = self.record
        if self._st == _DISPENSE:  # the 167's exchange: its outcome only logged
            try:
                r = self.bus.take(self._tok)
            except CcTalkError as e:
                r = e
                if self.log:
                    self.log("hopper: dispense %s: reading counters back" % e.reason)
            if r is None:
                return None
            self._tok = 0
            self._st = _STATUS
        if self._st == _END:
            return self._chunk_end(out)
        if self._st != _TEST:
            self._st = _STATUS
            r = ask(self, H_STATUS)
            if r is None:
                return None
            if len(r) != 4:
                raise CcTalkError("frame", H_STATUS)
            st = self._stat
            for i in range(4):
                st[i] = r[i]
            self._st = _TEST
        r = ask(self, H_TEST)
        if r is None:
            return None
        self._st = _NONE
        ctr, remaining, paid, unpaid = self._stat
        want = next_counter(rec["ctr"])
        old = self.flags
        self.flags = hopper_codes.flags_of(r)
        powered = self.flags & (1 << hopper_codes.POWER_UP)
        self._flag_events(out, old)
        if ctr == want and not powered:
            if remaining:
                out.append(("paying", rec["paid"] + paid, remaining))
                return True
            self._st = _END  # the chunk is over: 168 says how many coins left
            return self._chunk_end(out)
        elif ctr == rec["ctr"] and not powered:
            # the 167 never arrived (or its reply was lost before it acted): safe to send again
            if self._resends < MAX_RESENDS:
                self._resends += 1
                self._send(rec["c"])
            else:
                self._finish(out, rec["paid"], rec["n"] - rec["paid"])
        else:
            self._after_power_loss(out, paid)
        return True

    def _ask_count(self):
        """168 without waiting: -1 until its reply is in, then the count, or None (no 168: NAK)."""
        if not self.has_count:
            return None
        try:
            r = ask(self, H_DISPENSE_COUNT)
        except CcTalkError as e:
            if e.reason != "nak":
                raise
            self.has_count = False
            return None
        if r is None:
            return -1
        if len(r) != 3:
            raise CcTalkError("frame", H_DISPENSE_COUNT)
        return r[0] | r[1] << 8 | r[2] << 16

    def _chunk_end(self, out):
        """The chunk's end (166 paid it out): None until 168 is read, then True."""
        cnt = self._ask_count()
        if cnt == -1:
            return None
        self._st = _NONE
        self._end_count = cnt
        rec = self.record
        paid = self._stat[2]
        if rec["cnt"] is not None and cnt is not None:
            out_coins = (cnt - rec["cnt"]) & 0xFFFFFF
            if out_coins > rec["c"]:
                out.append(("extra", out_coins - rec["c"], 0))
            paid = out_coins  # the coins that left, whatever the hopper's last-payout says
        total = rec["paid"] + min(paid, rec["c"])
        if paid >= rec["c"] and total < rec["n"]:
            rec["paid"] = total
            self._arm_chunk()  # next chunk of a payout over 255 coins
            return True
        self._finish(out, total, rec["n"] - total)
        return True

    def _after_power_loss(self, out, paid166):
        rec = self.record
        cnt = self.count()
        if cnt is not None and rec["cnt"] is not None and not self.flags & (1 << hopper_codes.NV_CHECKSUM):
            out_coins = (cnt - rec["cnt"]) & 0xFFFFFF
            if out_coins > rec["c"]:
                out.append(("extra", out_coins - rec["c"], 0))
            total = rec["paid"] + min(out_coins, rec["c"])
            self._finish(out, total, rec["n"] - total)
        elif self.flags & (1 << hopper_codes.POWER_DOWN_DURING_PAYOUT):
            total = rec["paid"] + min(paid166, rec["c"])
            self._finish(out, total, rec["n"] - total)
        else:
            rec["st"] = "uncertain"
            rec["out"] = rec["paid"]
            rec["unpaid"] = rec["n"] - rec["paid"]
            self.store.save(rec)
            out.append(("uncertain", rec["n"], rec["paid"]))
        self.reset()  # clears power-up / power-down flags; then enable again
        self.enable(True)
        self.test()

    def _finish(self, out, paid, unpaid):
        rec = self.record
        rec["st"] = "done"
        rec["out"] = paid
        rec["unpaid"] = unpaid
        self.store.save(rec)
        out.append(("payout", paid, unpaid))

    def _idle_check(self, out):
        """168 (runaway coins) then 163 (new flags), each taken in a later call than it was sent."""
        if self._st == _NONE:
            self._st = _COUNT if self.has_count else _FLAGS
        if self._st == _COUNT:
            cnt = self._ask_count()
            if cnt == -1:
                return
            if cnt is not None and self.idle_count is not None and cnt != self.idle_count:
                out.append(("extra", (cnt - self.idle_count) & 0xFFFFFF, 0))
            self.idle_count = cnt
            self._st = _FLAGS
        r = ask(self, H_TEST)
        if r is None:
            return
        self._st = _NONE
        old = self.flags
        self.flags = hopper_codes.flags_of(r)
        self._flag_events(out, old)

    def _flag_events(self, out, old):
        new = self.flags & ~old
        bit = 0
        while new:
            if new & 1:
                out.append((hopper_codes.kind(bit), bit, 0))
            new >>= 1
            bit += 1
