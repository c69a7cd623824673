"""The fuzz campaign's rules for a cabinet whose books run under vlt: notes into the bill validator and
the validator's own faults, fraud codes and counter faults; the attendant who settles a note of
unknown fate from the cash box; the coupon printer's faults; the system's acknowledgements and
validation ids; the coupon memory spoilt while the power is off. A mixin of sim/fuzz/machine.py."""
from __future__ import annotations

import time

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from sim.fuzz import oracle
from sim.fuzz.inputs import (
    ACK_KINDS,
    ATTENDANT_KINDS,
    BILL_FAULT_CODES,
    BILL_FRAUD_CODES,
    BILL_REJECT_CODES,
    COUPON_MEMORY_KINDS,
    NOTE_TYPES,
    PRINTER_KINDS,
    VALIDATION_KINDS,
    VALIDATOR_KINDS,
)
from sim.fuzz.oracle import Violation
from sim.fuzz.rules import logged
from sim.harness import SYSTEM_IDS, system_validation

CPN_BASE = 126208  # firmware/coupon_store.py CPN_BASE: the coupon memory, to the part's end
PART = 131072  # the emulated board's 128 KB NVRAM file


def vlt(self) -> bool:
    return self._playable() and (self.rig is None or self._vlt())


class VltRules:
    @precondition(vlt)
    @rule(types=st.lists(st.sampled_from(NOTE_TYPES), min_size=1, max_size=4))
    @logged
    def notes(self, types: list[int]) -> None:
        """Canadian notes into a vlt cabinet's bill validator ($5 ... $100), each waited out."""
        for t in types:
            if self.rig.bills.insert(t):
                self._settle()

    @precondition(vlt)
    @rule(kind=st.sampled_from(VALIDATOR_KINDS), i=st.integers(0, 6), k=st.sampled_from((1, 2, 3, 4, 5, 6, 7, 20, 250)),
          note=st.sampled_from(NOTE_TYPES))
    @logged
    def validator(self, kind: str, i: int, k: int, note: int) -> None:
        """The bill validator's own faults (ccTalk event codes: a note handed back, fatal errors,
        fraud attempts, the stacker out or full, a jam and its clearing), events lost beyond its
        5-event buffer, its counter replayed back or jumped forward (a jump of 5 or less over a
        stacked note's old events too), a burst of events right after a note lands, and each counter
        fault striking while a note is pending. bill_in must still equal the stacker's notes."""
        b = self.rig.bills
        if kind == "reject":
            b.reject(BILL_REJECT_CODES[i % len(BILL_REJECT_CODES)])
        elif kind == "fault":
            b.error(BILL_FAULT_CODES[i % len(BILL_FAULT_CODES)])
        elif kind == "fraud":
            b.fraud(BILL_FRAUD_CODES[i % len(BILL_FRAUD_CODES)])
        elif kind == "stacker":
            b.stacker_full() if i % 2 else b.stacker_removed()
        elif kind == "jam":
            b.jam()
        elif kind == "clear":
            b.clear()
            b.stacker_inserted()
        elif kind == "lost":
            b.lose_events(max(k, 6))
        elif kind == "replay":
            b.replay(k)
        elif kind == "jump":
            b.jump(k)
        elif kind == "burst":  # the next note to land is followed at once by k events
            b.burst_after_stack(k % 8)
            self.unknown_cause = True  # its stacked event may leave the buffer unread
            if b.insert(note):
                self._settle()
        else:  # a counter fault while a note is pending
            if b.insert(note):
                self.unknown_cause = True
                time.sleep(0.05 * (i % 4))  # somewhere in its escrow exchange
                fault = kind[len("pending_"):]
                b.replay(k) if fault == "replay" else b.jump(k) if fault == "jump" else b.lose_events(max(k, 6))
        self.rig.wait_bills(2)

    @precondition(lambda self: vlt(self) and (self.rig is None or self.note_standing or self.unknown_cause))
    @rule(kind=st.sampled_from(ATTENDANT_KINDS))
    @logged
    def attendant_note(self, kind: str) -> None:
        """The attendant and a note of unknown fate: settles it as the cash box says (`note stacked`
        when the box holds one note's worth more than bill_in, `note returned` when the same), or
        first tries while a coupon is owed behind a printer at fault (refused there, nothing
        changed), or types it with no note standing (refused, nothing changed)."""
        rig = self.rig
        before = rig.console_json("note json")
        if before["note"] is None or kind == "nothing":
            m = rig.console_json("meters json")
            out = rig.command("note stacked")
            if before["note"] is None and not any("no note of unknown fate" in ln for ln in out):
                raise Violation("note", f"'note stacked' with no note standing answered {out}")
            if before["note"] is None:
                oracle.unchanged("note", (before, m), (rig.console_json("note json"), rig.console_json("meters json")),
                                 "'note stacked' with no note standing")
                return
        if kind == "in_payout" and rig.screen.get("credits"):
            rig.printer.paper_out_after(0)  # the cash-out's coupon stays owed: state payout
            self._press("cashout")
            try:
                rig.wait_screen(lambda s: s.get("state") == "payout", 2.0)
            except TimeoutError:
                pass
            state = rig.screen.get("state")
            if state in ("spin", "payout", "handpay", "jackpot"):
                m = rig.console_json("meters json")
                out = rig.command("note stacked")
                oracle.note_refused(out, state, (before, m),
                                    (rig.console_json("note json"), rig.console_json("meters json")))
            rig.printer.fix()
            self._key()
            self._settle()
        self._settle_note()

    def _settle_note(self) -> None:
        rig = self.rig
        note = rig.console_json("note json")["note"]
        if note is None:
            return
        if rig.screen.get("state") not in ("tilt", "door"):
            return  # another state first (the attendant sees to it: the key, a coupon)
        m = rig.console_json("meters json")
        t = self.truth
        box = t.bill_credits + (rig.bills.stacked_cents - t.bill_base) // self._denom()
        word = "stacked" if box == m["bill_in"] + note["k"] else "returned" if box == m["bill_in"] else None
        if word is None:
            raise Violation("notes", f"the cash box holds {box} credits of notes: neither bill_in {m['bill_in']} nor "
                                     f"it plus the note of unknown fate {note}")
        out = rig.command("note " + word)
        if not out or "settled as " + word not in out[0]:
            raise Violation("note", f"'note {word}' in state {rig.screen.get('state')} answered {out}")
        oracle.note_settled(word, note["k"], m, rig.console_json("meters json"))

    @precondition(vlt)
    @rule(kind=st.sampled_from(PRINTER_KINDS), k=st.integers(0, 14))
    @logged
    def printer(self, kind: str, k: int) -> None:
        """A vlt cabinet's coupon printer: a fault that strikes k lines into the next ticket (paper
        out, jam), the head opened, silent (unplugged), paper low or loaded again; the attendant
        seeing to it (the player's key then clears the tilt); the attendant asking for a reprint (a
        VLT never prints a coupon again: a DUPLICATE on paper is a violation)."""
        p = self.rig.printer
        if kind == "paper_out":
            p.paper_out_after(k)
        elif kind == "jam":
            p.jam_after(k)
        elif kind == "head_open":
            p.head_open()
        elif kind == "silent":
            p.mute(True)
        elif kind == "low":
            p.paper_low(k % 2 == 0)
        elif kind == "fix":
            p.mute(False)
            p.fix()
        else:
            self.rig.command("reprint")  # refused (said why): no reprint under vlt
        self.rig.wait_polls(2)

    @precondition(vlt)
    @rule(kind=st.sampled_from(ACK_KINDS))
    @logged
    def coupons_ack(self, kind: str) -> None:
        """The system acknowledges coupon records (SAS 4D; the auditor's `coupons ack N [M]`): every
        one issued, the oldest, one still owed (refused), one never given (refused). Only an issued
        record's slot may be taken again: every other record stays listed (checked after each step)."""
        rig = self.rig
        recs = rig.console_json("coupons json")
        issued = [r["s"] for r in recs if r["st"] == "issued"]
        owed = [r["s"] for r in recs if r["st"] == "owed"]
        if kind in ("all", "oldest") and issued:
            lo, hi = min(issued), max(issued) if kind == "all" else min(issued)
            out = rig.command(f"coupons ack {lo} {hi}")
            if not out or "acknowledged" not in out[0]:
                raise Violation("coupon_records", f"'coupons ack {lo} {hi}' answered {out}")
            for s in issued:
                if lo <= s <= hi:
                    self.kept.pop(s, None)
        elif kind in ("owed", "unknown"):
            seq = owed[0] if kind == "owed" and owed else max([r["s"] for r in recs] + [0]) + 1000
            out = rig.command(f"coupons ack {seq}")
            if not out or not out[0].startswith("error"):
                raise Violation("coupon_records", f"'coupons ack {seq}' of a coupon not issued answered {out}")
            oracle.unchanged("coupon_records", recs, rig.console_json("coupons json"), f"'coupons ack {seq}'")

    @precondition(vlt)
    @rule(kind=st.sampled_from(VALIDATION_KINDS), k=st.integers(1, 50))
    @logged
    def validation(self, kind: str, k: int) -> None:
        """The system sets the validation id (SAS 4C; the administrator's `validation set ID [SEQ]`):
        a new one (the system never gives one twice), the one in force with a sequence ahead or
        behind (never taken back), or an id out of range (refused). The sequence never goes back."""
        rig = self.rig
        v = rig.console_json("validation json")
        if kind == "new":
            vid = (SYSTEM_IDS[-1] + 1) if SYSTEM_IDS else 4242
            SYSTEM_IDS.append(vid)
            line = f"validation set {vid}"
        elif kind in ("seq_up", "seq_down") and v["vid"]:
            line = f"validation set {v['vid']} {v['seq'] + k if kind == 'seq_up' else max(0, v['seq'] - k)}"
        else:
            line = f"validation set {(0, 16777216)[k % 2]}"
        out = rig.command(line)
        after = rig.console_json("validation json")
        if after["seq"] < v["seq"]:
            raise Violation("validation", f"'{line}' took the coupon sequence back {v['seq']} -> {after['seq']}")
        if kind == "bad" and after != v:
            raise Violation("validation", f"'{line}' (out of range) answered {out} and changed {v} -> {after}")

    @precondition(lambda self: vlt(self) and self._calm())
    @rule(kind=st.sampled_from(COUPON_MEMORY_KINDS), k=st.integers(0, PART - CPN_BASE - 1))
    @logged
    def coupon_memory(self, kind: str, k: int) -> None:
        """While the power is off: the coupon memory spoilt (zeroed, a byte changed) or its rollback
        counter lost (STATE/counter-coupons), or nothing ("late": the system has not set the
        validation id yet at power-up). The cabinet boots without its system, then the system
        sets a validation id it never gave: while none is set, no money is taken (checked after the
        step too: `validation json`'s stop)."""
        rig = self.rig
        self._settle()
        owed = bool(self._owed())
        self._cut()
        path = rig.state / "nvram.bin"
        data = bytearray(path.read_bytes())
        if kind == "zero":
            data[CPN_BASE:] = bytes(len(data) - CPN_BASE)
        elif kind == "flip":
            data[CPN_BASE + k] ^= 0xFF
        if kind in ("zero", "flip"):
            path.write_bytes(bytes(data))
        elif kind == "counter":
            (rig.state / "counter-coupons").unlink(missing_ok=True)
        self._boot(system=False)
        self._booted(owed)
        v = rig.console_json("validation json") if rig.running == "vlt" else None
        if v is not None and not v["vid"]:
            pos = self._token_position()
            rig.wait_polls(2)
            coins, bills = rig.peer.accepting(pos), any(rig.bills.accepting(t) for t in rig.bills.bills)
            oracle.stop_means_no_money(v, coins, bills)
            if not v["stop"]:
                raise Violation("coupons_stop", f"no validation id but no stop: {v}")
            recs = rig.console_json("coupons json")
            self.kept = {r["s"]: r["n"] for r in recs if r["st"] != "acked"}  # the memory lost: what it keeps now
        system_validation(rig.console)
        rig.wait_polls(2)
