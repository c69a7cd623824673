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
#    before the chunk (None if unsupported), "st": "armed" | "done" | "uncertain" ("arming" in RAM
#    only, before the first save),
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
# Neither payout() nor service(out) waits on the bus (board/cctalk.py; the cabinet's loop answers SAS
# within 20 ms): each reading is sent in one call and taken in a later one (at once when the reply is
# already in). payout() keeps the record in RAM as "arming" (never saved) while the first chunk's 166
# counter and 168 count are read; the record is saved "armed" in the call that has both, and its 167
# goes out then, or in a later call once the bus is free (a restart in between finds the counter
# unchanged and sends it). The 167's reply is taken (only logged: the counters say whether it was
# taken) before the next reading; while paying, 166 then 163; a chunk's end 168, and the next chunk
# armed from that 166 counter and 168 count, no new reading; a power loss 168, the result saved, then
# reset, enable and 163, each in its own call. busy() stays True while any step is under way, so the
# firmware calls service() again in its next pass. A failed reading while "arming" forgets the record
# (nothing saved, nothing sent) and raises: the firmware pays by hand, as when payout() refuses.
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
_ARM = const(7)  # arming: 166 (its counter before the first chunk)
_ARM_COUNT = const(8)  # arming: 168 (the count before it)
_SEND = const(9)  # the record saved armed: the 167 goes out once the bus is free
_LOSS = const(10)  # a hopper power loss: 168 says how many coins left
_RESET = const(11)  # after it, the result saved: 1, then 164, then 163
_ENABLE = const(12)
_RETEST = const(13)
_ENABLE_ON = b"\xa5"  # 164's enable code (ENABLE_CODE)
# the set-up's step (start)
_B_NONE = const(0)
_B_CAT = const(1)
_B_SERIAL = const(2)
_B_FLAGS = const(3)
_B_ARMED = const(4)
_B_RESET = const(5)
_B_RETEST = const(6)
_B_COUNT = const(7)
_B_ENABLE = const(8)


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
        self._dlen = 0  # the 167's length in _dispense
        self._st = _NONE  # service()'s reading under way
        self._boot = _B_NONE  # start()'s step
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
        """Identify, finish any payout left by a restart (events into out), clear, enable: start()
        seen to its end, waiting (power-up, the tests). An exchange on the bus is seen to its end first."""
        self.bus.claim()
        self._tok = 0
        self._boot = _B_NONE
        while self.start(out) is None:
            self.bus.wait()

    def start(self, out):
        """The set-up in the loop's form, one exchange a call: None until done, then True. Category
        (245), serial (242, for "serial" security), flags (163); a payout left armed by a restart
        finished or proved by its readings (_armed); reset (1) and 163 again if flagged, the idle
        baseline (168), enable (164). Raises HopperError (not a hopper), CcTalkError: asked again from
        the start."""
        try:
            return self._start(out)
        except (CcTalkError, HopperError):
            self._boot = _B_NONE
            self._st = _NONE
            raise

    def _start(self, out):
        b = self._boot
        if b == _B_NONE:
            if self._tok:  # a reading of ours still on the bus: taken to its end, its outcome dropped
                try:
                    if self.bus.take(self._tok) is None:
                        return None
                except CcTalkError:
                    pass
                self._tok = 0
            self._st = _NONE
            b = self._boot = _B_CAT
        if b == _B_CAT:
            r = ask(self, H_CATEGORY)
            if r is None:
                return None
            cat = bytes(r).decode()
            if cat != "Payout":
                raise HopperError("device at %d is %r, not a Payout" % (self.addr, cat))
            b = self._boot = _B_SERIAL if self.security == "serial" else _B_FLAGS
        if b == _B_SERIAL:
            r = ask(self, H_SERIAL)
            if r is None:
                return None
            self._serial = bytes(r)
            b = self._boot = _B_FLAGS
        if b == _B_FLAGS:
            if not self._read_flags():
                return None
            self.record = self.store.load()
            self._flag_events(out, 0)
            b = self._boot = _B_ARMED
        if b == _B_ARMED:
            if self.record and self.record["st"] == "armed":
                if self._armed(out) is None:
                    return None
                if self._st >= _RESET:
                    self._st = _NONE  # its reset and enable are this set-up's own, below
            armed = self.record and self.record["st"] == "armed"
            if armed:
                b = self._boot = _B_ENABLE
            elif self.flags & hopper_codes.NEEDS_RESET or self.flags & (1 << hopper_codes.POWER_UP):
                b = self._boot = _B_RESET
            else:
                b = self._boot = _B_COUNT
        if b == _B_RESET:
            if ask(self, H_RESET) is None:
                return None
            b = self._boot = _B_RETEST
        if b == _B_RETEST:
            if not self._read_flags():
                return None
            b = self._boot = _B_COUNT
        if b == _B_COUNT:
            cnt = self._ask_count()
            if cnt == -1:
                return None
            self.idle_count = cnt
            self._end_count = cnt  # a record left done: settle()'s baseline
            b = self._boot = _B_ENABLE
        if ask(self, H_ENABLE, _ENABLE_ON) is None:
            return None
        self._boot = _B_NONE
        return True

    # --- paying --------------------------------------------------------------------------------
    def busy(self):
        """A payout record is open, or a step is under way: service() again in the next pass."""
        return self.record is not None or self._st != _NONE

    def payout(self, n, ref=0):
        """Start paying n coins for the firmware's transaction `ref`, never waiting: the hopper's
        counters are read (at once if their replies are in, else by service() in later passes), the
        record saved armed, then the 167 sent. Raises HopperError/CcTalkError with nothing saved."""
        if self.record is not None:
            raise HopperError("a payout record is still open")
        if self.flags & hopper_codes.NEEDS_RESET and self._st < _RESET:  # a reset under way clears them
            raise HopperError("hopper fault latched: clear_faults() after an attendant check")
        if n <= 0:
            raise ValueError("payout of %d coins" % n)
        self.record = {"ref": ref, "n": n, "paid": 0, "c": 0, "ctr": 0, "cnt": None,
                       "st": "arming", "out": 0, "unpaid": 0}
        if self._st == _NONE:  # else an idle reading or a reset first (service)
            self._step([])

    def _arming(self, out):
        """The first chunk's 166 counter, then its 168 count; then the record saved armed."""
        rec = self.record
        if self._st == _NONE:
            if self.flags & hopper_codes.NEEDS_RESET:
                raise HopperError("hopper fault latched: clear_faults() after an attendant check")
            self._st = _ARM
        if self._st == _ARM:
            r = ask(self, H_STATUS)
            if r is None:
                return
            if len(r) != 4:
                raise CcTalkError("frame", H_STATUS)
            rec["ctr"] = r[0]
            self._st = _ARM_COUNT
        cnt = self._ask_count()
        if cnt == -1:
            return
        self._arm(rec["ctr"], cnt)

    def _arm(self, ctr, cnt):
        """A chunk armed: the record saved with the counters it is proved by, then its 167."""
        rec = self.record
        self._end_count = None  # only the last chunk's end is the payout's
        rec["c"] = min(MAX_CHUNK, rec["n"] - rec["paid"])
        rec["ctr"] = ctr
        rec["cnt"] = cnt
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
        self._dlen = k + 1
        self._st = _SEND
        self._dispatch()

    def _dispatch(self):
        """The 167 out, if the bus is free this pass (never repeated by the Master: retries=0)."""
        self._tok = self.bus.send(self.addr, H_DISPENSE, memoryview(self._dispense)[:self._dlen], retries=0)
        if self._tok:
            self._st = _DISPENSE  # its reply taken before the counters are read
        return self._tok

    def service(self, out):
        """Poll the hopper (call it every main-loop pass while busy, now and then when idle)."""
        rec = self.record
        if rec is not None and rec["st"] == "done":
            if self._st >= _RESET:
                self._step(out)  # the power loss's reset and enable, the result already saved
            out.append(("payout", rec["out"], rec["unpaid"]))
        elif rec is not None and rec["st"] == "uncertain":
            if self._st >= _RESET:
                self._step(out)
            out.append(("uncertain", rec["n"], rec["out"]))
        else:
            self._step(out)

    def _step(self, out):
        """One step of whatever is under way; a failed reading is asked again by the next call."""
        rec = self.record
        try:
            if self._st >= _RESET:
                if not self._recover():
                    return
            if rec is None or self._st == _COUNT or self._st == _FLAGS:
                self._idle_check(out)  # one under way is finished before a payout's first reading
                return
            if rec["st"] == "arming":
                self._arming(out)
            elif rec["st"] == "armed":
                self._armed(out)
        except (CcTalkError, HopperError):
            self._st = _NONE
            if rec is not None and rec["st"] == "arming":
                self.record = None  # nothing saved, no 167 sent: the firmware pays by hand
            raise

    def settle(self):
        """The firmware has committed the final result: forget the record."""
        self.record = None
        self.store.save(None)
        # the idle baseline: the count read at the payout's end (a coin out since is a runaway the next
        # idle check reports); every end in this session reads it, a record left done by begin()
        cnt = self._end_count
        self._end_count = None
        if cnt is not None:
            self.idle_count = cnt

    def _armed(self, out):
        """One step of the payout under way: None while its readings are on the bus, else True."""
        rec = self.record
        if self._st == _SEND:
            self._dispatch()
            return None
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
        if self._st == _LOSS:
            return self._after_power_loss(out)
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
                self._end_count = rec["cnt"]  # no coin of this chunk went out: the count before it
                self._finish(out, rec["paid"], rec["n"] - rec["paid"])
            return True
        self._st = _LOSS
        return self._after_power_loss(out)

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
            # next chunk of a payout over 255 coins, proved by the counter and count just read: only
            # our 167 moves the one, and a coin out since moves the other (seen as extra)
            self._arm(self._stat[0], cnt)
            return True
        self._finish(out, total, rec["n"] - total)
        return True

    def _after_power_loss(self, out):
        """The hopper lost power mid-payout: None until 168 is read; then the result saved, and the
        reset, enable and flags that follow it taken by the next calls (_recover)."""
        cnt = self._ask_count()
        if cnt == -1:
            return None
        rec = self.record
        if cnt is not None and rec["cnt"] is not None and not self.flags & (1 << hopper_codes.NV_CHECKSUM):
            out_coins = (cnt - rec["cnt"]) & 0xFFFFFF
            if out_coins > rec["c"]:
                out.append(("extra", out_coins - rec["c"], 0))
            total = rec["paid"] + min(out_coins, rec["c"])
            self._end_count = cnt
            self._finish(out, total, rec["n"] - total)
        elif self.flags & (1 << hopper_codes.POWER_DOWN_DURING_PAYOUT):
            total = rec["paid"] + min(self._stat[2], rec["c"])
            self._end_count = cnt
            self._finish(out, total, rec["n"] - total)
        else:
            rec["st"] = "uncertain"
            rec["out"] = rec["paid"]
            rec["unpaid"] = rec["n"] - rec["paid"]
            self.store.save(rec)
            self._end_count = cnt
            out.append(("uncertain", rec["n"], rec["paid"]))
        # saved first: a reset before it would clear the power-up flag a restart tells the loss by
        self._st = _RESET
        return True

    def _recover(self):
        """After a power loss: reset (clears power-up / power-down flags), enable, read the flags;
        one exchange a call, True once done."""
        if self._st == _RESET:
            if ask(self, H_RESET) is None:
                return False
            self._st = _ENABLE
        if self._st == _ENABLE:
            if ask(self, H_ENABLE, _ENABLE_ON) is None:
                return False
            self._st = _RETEST
        if not self._read_flags():
            return False
        self._st = _NONE
        return True

    def _read_flags(self):
        """163 without waiting: False until its reply is in, then True (self.flags read, no events)."""
        r = ask(self, H_TEST)
        if r is None:
            return False
        self.flags = hopper_codes.flags_of(r)
        return True

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
