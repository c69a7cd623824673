"""`make powercut`: kill the firmware process (SIGKILL: a power cut) at random instants across
scripted sessions on the emulated board, reboot it, and check that nothing was lost, nothing paid
twice and every meter agrees; every few cuts also flip a random bit of live critical memory in the
NVRAM file and check the firmware detects it. Half the sessions (--jurisdiction both, the default)
run the cabinet as a video-lottery terminal that also takes Canadian notes from the emulated bill
validator, whose escrow, counter and stacker outlive the cuts: the credits of the notes it stacked
must equal the bill_in meter, so a cut anywhere in the escrow exchange loses or doubles nothing.
The validator shares the cabinet's supply in a share of those cuts (every cut timed "just as a note is
stacked", and one in four of the others): its counter and buffer restart, a note held in escrow
comes back out (or stays), one on its way lands in the cash box or comes back out. The firmware
cannot tell which, so it stops money in with a note of unknown fate: the campaign checks money in
stopped, settles it as an attendant counting the cash box would (the stacker's truth against
bill_in), and checks that no note of unknown fate was raised while the validator kept its power.
Those vlt sessions pay by redemption coupon from the emulated printer, which also outlives the cuts:
some cash-outs are cut while their coupon prints (between the commit of its number and the printer's
"issued"), some run into paper out or a jam mid-ticket, and the attendant sometimes asks for a
reprint, which a VLT refuses (a DUPLICATE on paper is a mismatch). After every reboot the paper is
the truth: each control number on paper is one coupon worth the credits the firmware committed
under it, and the coupons' credits add up to coupon_out exactly (more: a second valid coupon for one
cash-out; less: credits that left the meter unprinted). Then the session's system acknowledges the
coupons issued (`coupons ack`), so their records do not fill the coupon memory.

Now and then, with nothing owed, the technician clears critical memory (under vlt: a RAM clear
between two coupons) while the stretch's kill timer runs: the cut lands before the clear, in it, or
after it. The console's answer says whether it was taken, and the truth starts again from the peers'
counts at once; when the cut took the answer, the security log says so after the reboot (the clear
was the stretch's last act). Either way the security log and the books' first event then confirm it,
read before anything of the model changes, so a cut in those reads leaves it to the next reboot.

Truth comes from the host side, not from the firmware: the coins the acceptor peer accepted, the hand
pays the attendant saw cleared, the outcome the display showed. Prints a JSON summary:
cuts, lost_credits, duplicated_credits, meter_mismatches, unrecovered (all zero but cuts), bitflips,
bitflips_detected, the notes stacked and returned, the coupons (distinct control numbers on paper),
coupon_reissues (a number printed again after a cut or fault: the same coupon, which a validation
system pays once), coupon_duplicates (DUPLICATE reprints: 0 under vlt), cuts_coupon_owed (cuts
that left a coupon committed but not issued), cuts_mid_ticket (cuts with a ticket half on paper or
still in the printer's paper path),
notes_unproven (notes of unknown fate the attendant settled from the cash box), cuts_validator (cuts
that took the validator's power), ramclears (clears taken), ramclears_cut (those whose answer the cut
took), cuts_ramclear (stretches that asked for one), ramclears_failed (a clear the console answered
with an error, e.g. out of memory: the books stay), ramerrors_flipped and ramerrors_own (RAM errors at
boot, each also unrecovered, after an injected flip or with none: one flipped bit is always
repairable, so neither is a legitimate answer), strokes_unreleased (meter strokes a cut took between
the commit counting them and the coil's release: that meter is expected one behind, docs/campaigns.md)
and the rate (cuts_per_minute).

Speed: sessions run in parallel (--jobs, default 8: a session mostly waits on the firmware, so eight
share the two cores), and every wait is on an event (acceptor polls, display lines, the console's
prompt), never a fixed sleep; the random instant of each cut is the only deliberate delay.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from firmware import config
from firmware.cabinet import HARD_METERS
from games import load
from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.fuzz_rig import Rig, parallel
from sim.sas_host import SasHost, bcd
from tools.console import ConsoleClosed

TOKEN = 1
TOKEN_CREDITS = config.COINS[CoinAcceptorPeer.COINS[TOKEN]] // config.DENOM_CENTS
HARD = HARD_METERS  # which soft meters each coil counts: the firmware's own configuration
DUPLICATE = "*** DUPLICATA / DUPLICATE ***"  # firmware/coupon.py: the mark of a reprint
PRINT_MS = 250  # a ~100 mm coupon at the Epic 950's 150 mm/s or so, then presented
STACK_S = 0.25  # a note's way from the escrow into the stacker (real validators take about a second)
COUPON_FIGURES = ("coupons", "coupon_reissues", "coupon_duplicates", "cuts_coupon_owed", "cuts_mid_ticket")
# the technician's RAM clear with nothing owed (between two coupons under vlt), the kill timer running:
# the cut may land before it, in its one transaction, or after it
RAMCLEAR_RATE = 0.03  # of the actions taken with nothing owed
RAMCLEAR_FIGURES = ("ramclears", "ramclears_cut", "cuts_ramclear", "ramclears_failed")
# the RAM errors at boot (each also `unrecovered`): after an injected flip, or with none injected
RAMERROR_FIGURES = ("ramerrors_flipped", "ramerrors_own")
POLLED_S = 60.0  # the acceptor polled after a power-up: a boot on a loaded host is slow, never this slow


class Truth:
    """What the outside world knows happened, independent of the firmware's own books, since the
    last RAM clear (the peers' counts then: `*_base`)."""

    def __init__(self, hopper_base: int = 0, bill_base: int = 0, meter_base: dict | None = None) -> None:
        self.tokens = 0  # accepted by the acceptor peer
        self.handpaid = 0  # hand pays the attendant saw cleared
        self.pending_lock: dict | None = None
        self.shown: dict | None = None  # the last game outcome the display showed
        self.hopper_base = hopper_base  # coins out of the hopper at the last RAM clear
        self.bill_base = bill_base  # cents of notes in the stacker then
        self.meter_base = meter_base or {}  # the EM coils' counts then (a clear keeps their positions)


class Session:
    def __init__(self, state: Path, seed: int, heap: str | None, flip_every: int, progress=None,
                 jurisdiction: str = "casino") -> None:
        self.state = state
        self.seed = seed
        self.rnd = random.Random(seed)
        self.flip_every = flip_every
        self.progress = progress  # a queue: one item per cut, for the campaign's progress bar
        self.truth = Truth()
        # the acceptor, the hopper and the EM meters keep their own memory across the cabinet's cuts
        self.vlt = jurisdiction == "vlt"
        # a coupon takes a while to print and leave the paper path (PRINT_MS): cuts land in that time too
        # a casino cabinet's SAS line: the central system reads 1C and 1A after every power-up
        # (check_sas). Not a vlt's: it plays only while its system polls (docs/sas.md), and a keep-alive
        # changed the sessions' course (test_coupons_survive_power_cuts_and_printer_faults' seed printed
        # no coupon in its 25 cuts)
        self.rig = Rig(state, heap=heap, jurisdiction=jurisdiction, print_ms=PRINT_MS, stack_s=STACK_S,
                       sas=not self.vlt)
        self.sas = SasHost(self.rig.sas.path, timeout=0.5) if self.rig.sas else None
        self.bills = self.rig.bills
        self.hopper = self.rig.hopper
        self.printer = self.rig.printer  # vlt: coupons out; its tickets are the truth for coupon_out
        self.coupon_adjust = 0
        self.monitor = self.rig.monitor
        self.game = load(f"{config.MODELS_DIR}/{config.GAMES[0]}.json")
        self.report = {"cuts": 0, "lost_credits": 0, "duplicated_credits": 0, "meter_mismatches": 0,
                       "unrecovered": 0, "bitflips": 0, "bitflips_detected": 0, "problems": []}
        self.report["notes_stacked"] = self.report["notes_returned"] = 0
        self.report["notes_unproven"] = self.report["cuts_validator"] = 0
        self.report["strokes_unreleased"] = 0
        for k in RAMCLEAR_FIGURES + RAMERROR_FIGURES:
            self.report[k] = 0
        self.flipped: tuple[int, int] | None = None  # (offset, bit) flipped before this boot
        # the stretch's technician asked for a RAM clear, to be settled from the logs (Session.cleared):
        # None, "asked" (no answer: the cut took it), "taken" (answered cleared) or "failed" (an error)
        self.clearing: str | None = None
        self.clears_seen = 0  # the security log's newest `ramclear` record
        self.note_cut = False  # the stretch's cut was timed as a note is stacked: the validator's power goes too
        self.validator_cut = False  # the last cut took the validator's power
        for k in COUPON_FIGURES:
            self.report[k] = 0
        self.reported: set[str] = set()  # coupon numbers already reported wrong (each reported once)

    # --- plumbing ------------------------------------------------------------------------------------
    def boot(self):
        self.rig.boot()
        return self.rig.fw, self.rig.peer, self.rig.panel, self.rig.console

    def close(self) -> None:
        if self.sas is not None:
            self.sas.close()
        self.rig.shutdown()

    def unplug(self, peer, panel, console) -> None:
        # about one cut in five takes the hopper's power too; under vlt the validator's goes with the
        # cabinet's at every cut timed as a note is stacked and at one in four of the others
        self.validator_cut = self.vlt and (self.note_cut or self.rnd.random() < 0.25)
        self.note_cut = False
        held = "keep" if self.rnd.random() < 0.2 else "front"
        transport = "front" if self.rnd.random() < 0.3 else "cashbox"
        self.rig.cut(hopper_too=self.rnd.random() < 0.2, validator_too=self.validator_cut, held=held,
                     transport=transport)
        self.report["cuts_validator"] += self.validator_cut

    def console_json(self, console, command: str):
        return self.rig.console_json(command)

    def problem(self, kind: str, text: str, amount: int = 1) -> None:
        self.report[kind] += amount
        self.report["problems"].append(f"cut {self.report['cuts']}: {text}")

    # --- checks after every reboot ---------------------------------------------------------------
    def check(self, fw, peer, panel, console) -> bool:
        s = panel.screen
        flipped = self.flipped
        if s.get("state") == "ramerror":
            # the flip lands after the host has opened the memory (flip_bit: its journal replayed,
            # both copies of every block whole), so one flipped bit is always repairable: a RAM error
            # is the firmware's fault either way, and which kind of boot it was is said
            why = f"a bit flipped at {flipped[0]} before this boot" if flipped else \
                "no bit flipped before this boot: the firmware's own"
            self.problem("unrecovered", f"RAM error after reboot ({why}): " + str(fw.lines[-5:]))
            self.report["ramerrors_flipped" if flipped else "ramerrors_own"] += 1
            return False
        if self.clearing:
            self.cleared(console, after_cut=True)
        # let the firmware poll the acceptor: buffered coins from before the cut are credited now. Judged
        # only once it has, however long a busy host makes that take (casino at eff23da under load 10:
        # the books read before the poll, a coin "lost" that SAS 1C then showed credited)
        if not self.rig.wait_polls(2, POLLED_S):
            self.problem("unrecovered", f"the acceptor not polled twice in {POLLED_S:.0f} s after the power-up: "
                                        + str(fw.lines[-5:]))
            return False
        if self.printer is not None:
            self.attend_printer(panel)
        try:  # a payout left open by the cut: the hopper driver finishes or proves it; a coupon owed prints
            panel.wait_for(lambda x: x.get("state") != "payout", 10)
        except TimeoutError:
            pass
        m = self.console_json(console, "meters json")
        if self.printer is not None:
            self.check_coupons(console, panel, m)
        coins = self.hopper.coins_out - self.truth.hopper_base
        if m["hopper_out"] != coins * TOKEN_CREDITS:
            kind = "duplicated_credits" if coins * TOKEN_CREDITS > m["hopper_out"] else "lost_credits"
            self.problem(kind, f"hopper paid {coins} coins, hopper_out meter {m['hopper_out']}",
                         abs(m["hopper_out"] - coins * TOKEN_CREDITS))
        if self.vlt:
            self.check_bills(console)
            m = self.console_json(console, "meters json")
        self.check_hard_meters(m, console)
        want_in = self.truth.tokens * TOKEN_CREDITS
        self.check_sas(m)
        if m["acceptor_in"] < want_in:
            self.problem("lost_credits", f"acceptor_in {m['acceptor_in']} < {want_in} accepted",
                         want_in - m["acceptor_in"])
        elif m["acceptor_in"] > want_in:
            self.problem("duplicated_credits", f"acceptor_in {m['acceptor_in']} > {want_in} accepted",
                         m["acceptor_in"] - want_in)
        lock = self._lock(console)
        if self.truth.pending_lock and not lock:
            self.truth.handpaid += self.truth.pending_lock["amount"]  # it was cleared before the cut
            self.truth.pending_lock = None
        if m["cancelled"] != self.truth.handpaid:
            kind = "duplicated_credits" if m["cancelled"] > self.truth.handpaid else "lost_credits"
            self.problem(kind, f"hand-paid meter {m['cancelled']} vs attendant paid {self.truth.handpaid}",
                         abs(m["cancelled"] - self.truth.handpaid))
            self.truth.handpaid = m["cancelled"]  # report each discrepancy once
        if m["credits"] != m["acceptor_in"] + m["bill_in"] + m["coin_out"] + m["refunds"] - m["coin_in"] - m["cashout"]:
            self.problem("meter_mismatches", f"credit identity broken: {m}")
        if m["cashout"] != m["hopper_out"] + m["cancelled"] + m.get("coupon_out", 0):
            self.problem("meter_mismatches", f"cashout identity broken: {m}")
        recall = self.console_json(console, "recall json")["games"]
        for a, b in zip(recall, recall[1:]):
            if b["n"] != a["n"] + 1:
                self.problem("meter_mismatches", f"recall sequence gap {a['n']} -> {b['n']}")
        if recall and recall[-1]["n"] != m["games_played"]:
            self.problem("meter_mismatches", f"games_played {m['games_played']} but last recall #{recall[-1]['n']}")
        if recall:
            last = recall[-1]
            replay = self.game.evaluate(last["bet"], last["draws"])
            if replay.award != last["win"] or s.get("reels") != replay.window:
                self.problem("meter_mismatches", f"shown {s.get('reels')} but recall replays {replay.window}")
            shown = self.truth.shown
            if shown and shown["games"] == last["n"] and shown["reels"] != s.get("reels"):
                self.problem("meter_mismatches", f"game #{last['n']} showed {shown['reels']}, after restart {s.get('reels')}")
        return True

    def check_sas(self, m: dict) -> None:
        """What the system reads over SAS after the power-up (1C's meters, 1A's credits, 4 BCD: 8
        digits) is what the books say (their acceptor_in is checked against the coins this campaign
        fed just below): read once the machine has them (buffered coins credited)."""
        if self.sas is None:
            return
        try:
            with self.sas.lock:
                self.sas.sync()
                d = self.sas.checked(0x1C, 36)
                credits = self.sas.meter(0x1A)
        except (TimeoutError, ValueError, OSError) as e:
            self.problem("meter_mismatches", f"SAS 1C/1A after power-up: {e}")
            return
        got = [bcd(d[i:i + 4]) for i in range(0, 32, 4)]
        want = [v % 10 ** 8 for v in (m["coin_in"], m["coin_out"], m["acceptor_in"] + m["bill_in"], m["jackpot"],
                                       m["games_played"], m["games_won"], m["door_main"], m["power_resets"])]
        if got != want or credits != m["credits"] % 10 ** 8:
            self.problem("meter_mismatches", f"SAS 1C {got} 1A {credits}, books and campaign {want} {m['credits']}")

    def check_bills(self, console) -> None:
        """After set-up the note left in escrow is stacked (its credit committed) or handed back, and
        the events past the committed counter are read. A note of unknown fate (the validator lost
        its power with a note pending) must have stopped money in, must come from a cut that took
        the validator's power, and is settled from the cash box. bill_in is then the notes stacked."""
        deadline = time.monotonic() + 10
        while (self.bills.escrow is not None or self.bills.transport is not None) and time.monotonic() < deadline:
            self.rig.wait_bills(1, 1.0)
        self.rig.wait_bills(3, 5.0)
        note = self.console_json(console, "note json")["note"]
        if note is not None:
            self.report["notes_unproven"] += 1
            if not self.validator_cut:
                self.problem("meter_mismatches", f"a note of unknown fate though the validator kept its power: {note}")
            if self.bills.master_enabled or self.rig.peer.accepting(TOKEN):
                self.problem("meter_mismatches", f"money in still taken while a note's fate is unknown: {note}")
            note, word = self.rig.attend_note(self.truth.bill_base)
            if word is None:
                m = self.console_json(console, "meters json")
                self.problem("lost_credits", f"the cash box holds {self.bills.stacked_cents} cents of notes: neither "
                                             f"bill_in {m['bill_in']} nor it plus the unknown {note}")
        m = self.console_json(console, "meters json")
        want = (self.bills.stacked_cents - self.truth.bill_base) // config.DENOM_CENTS
        if m["bill_in"] != want:
            kind = "duplicated_credits" if m["bill_in"] > want else "lost_credits"
            self.problem(kind, f"bill_in {m['bill_in']} but the stacker holds {want} credits of notes",
                         abs(m["bill_in"] - want))
            self.truth.bill_base = self.bills.stacked_cents - m["bill_in"] * config.DENOM_CENTS  # report it once

    def cleared(self, console, after_cut: bool = False) -> None:
        """Settle the technician's RAM clear from the security log (its `ramclear` record: the clear
        does not reach that memory) and the books' first event, read both before anything changes:
        a cut in these reads leaves `clearing` as it was, for the next reboot. `clearing` says what
        the console answered: "asked" (nothing: the cut took the answer), "taken" (cleared, the truth
        already started again) or "failed" (an error: nothing may have changed). A new record after
        "asked" is a clear the cut hid: taken now, from the peers' counts (nothing happened after
        it). A clear answered taken must be in the log by the next power-up (its record is written
        right after the books, or at power-up when a cut or the heap came between), and one answered
        with an error must not be there."""
        records = self.console_json(console, "security json")
        events = self.console_json(console, "events json")["events"] or []
        newest = max([0] + [r[0] for r in records if r[3] == "ramclear"])
        new = newest > self.clears_seen
        if self.clearing == "asked" and new:
            self.take_clear(after_cut=True)
        elif self.clearing == "failed" and new:
            self.problem("unrecovered", f"a RAM clear answered with an error is in the security log (#{newest})")
            self.take_clear(after_cut=after_cut)  # it was taken: the truth follows the books from here
        elif self.clearing == "taken" and not new:
            if not after_cut:
                return  # its record is still to come (written at the next power-up): settled after it
            self.problem("unrecovered", "a RAM clear answered 'cleared' is not in the security log after the power-up")
        if new and (not events or events[0][2] != "ramclear" or "nothing owed" not in events[0][3]):
            self.problem("unrecovered", f"a RAM clear in the security log, but the books begin with {events[:1]}")
        self.clears_seen = max(newest, self.clears_seen)
        self.clearing = None

    def take_clear(self, after_cut: bool) -> None:
        """The books start again from zero, and the truth with them, from the peers' counts now
        (the meter coils count on from where they stand, the coupons on paper are the old books')."""
        self.report["ramclears"] += 1
        self.report["ramclears_cut"] += after_cut  # taken, its answer cut off: the cut fell in or just after it
        self.truth = Truth(self.hopper.coins_out, self.bills.stacked_cents, dict(self.monitor.counts))
        if self.printer is not None:  # coupons from before the clear are not its books'
            self.coupon_adjust = -sum(self.paper()[0].values())
        self.clearing = "taken"

    def ram_clear(self, panel) -> None:
        """The technician's RAM clear with nothing owed (between two coupons under vlt): the audit
        key, `ramclear`, the key back. The stretch's kill timer runs on: the cut lands before the
        clear, in it, or after it. The console's answer says what happened (firmware/console.py
        cmd_ramclear): cleared, and the truth starts again at once, before anything more of the
        stretch (and before reading the logs, which a cut may take); an error, and nothing changed."""
        self.clearing = "asked"
        self.report["cuts_ramclear"] += 1
        panel.set_pin("key_audit", 1)
        panel.wait_for(lambda x: x.get("state") == "service", 2)
        self.rig.wait_hard_meters(5.0)  # a stroke on its way: the clear waits for it
        m = self.console_json(self.rig.console, "meters json")
        for coil, names in HARD.items():  # the monitor's thread past the last stroke: where the coils stand
            self.monitor.wait_for(coil, sum(m[n] for n in names) + self.truth.meter_base.get(coil, 0), 15.0)
        answer = self.rig.command("ramclear")
        if any("critical memory cleared" in ln for ln in answer):
            self.take_clear(after_cut=False)
        elif any(ln.startswith("error:") for ln in answer):
            # e.g. "out of memory for 'ramclear'; try again": the books stay as NVRAM holds them
            # (tests/device/test_firmware_ramclear_out_of_memory.py)
            self.report["ramclears_failed"] += 1
            self.clearing = "failed"
        self.cleared(self.rig.console)
        panel.set_pin("key_audit", 0)
        panel.wait_for(lambda x: x.get("state") != "service", 2)

    def attend_printer(self, panel) -> None:
        """The attendant loads paper, clears the jam, closes the head, and turns the key."""
        self.printer.fix()
        if "printer" in panel.screen.get("msg", ""):
            panel.press("key_reset", hold=0.15)
            panel.wait_for(lambda x: "printer" not in x.get("msg", ""), 3)

    def paper(self) -> tuple[dict[str, int], dict[str, int], list[str]]:
        """What the printer put on paper: control number -> credits and -> copies, for the tickets
        that carry a number (finished, or stopped after it) and are not marked DUPLICATE; and the
        numbers of the DUPLICATE reprints."""
        credits: dict[str, int] = {}
        copies: dict[str, int] = {}
        dups: list[str] = []
        with self.printer.lock:
            tickets = list(self.printer.tickets)
        for t in tickets:
            if t.number is None:
                continue
            if DUPLICATE in t.lines:
                dups.append(t.number)
                continue
            k = [int(line.split()[-1]) for line in t.lines if line.startswith("Credits: ")]
            if k and credits.get(t.number, k[0]) != k[0] and t.number not in self.reported:
                self.reported.add(t.number)
                self.problem("duplicated_credits", f"control number {t.number} on paper for {credits[t.number]} "
                                                   f"and for {k[0]} credits")
            credits.setdefault(t.number, k[0] if k else 0)
            copies[t.number] = copies.get(t.number, 0) + 1
        return credits, copies, dups

    def check_coupons(self, console, panel, m: dict) -> None:
        """A coupon owed at the cut prints once the printer is ready (the attendant has seen to it).
        Then every control number that reached paper (a finished ticket, or one stopped after its
        number) is one coupon, counted once however many times it was printed, worth the credits the
        firmware committed under that number; a DUPLICATE counts for nothing and reprints a coupon
        issued; and their credits add up to coupon_out exactly. More is a second valid coupon for
        the same cash-out; less, credits that left the meter unprinted."""
        recs = self.console_json(console, "coupons json")
        deadline = time.monotonic() + 15
        while recs and recs[-1]["st"] == "owed" and time.monotonic() < deadline:
            self.attend_printer(panel)
            time.sleep(0.1)
            recs = self.console_json(console, "coupons json")
        if recs and recs[-1]["st"] == "owed":
            self.problem("unrecovered", f"coupon {recs[-1]['s']} still owed 15 s after the printer was ready: "
                                        f"{console.command('state')}")
        credits, copies, dups = self.paper()
        for r in recs:
            n = r["n"]
            if n in self.reported:
                continue
            if n in credits and credits[n] != r["k"]:
                self.reported.add(n)
                self.problem("meter_mismatches", f"coupon {r['s']} ({n}) committed for {r['k']} credits, "
                                                 f"on paper for {credits[n]}")
            if r["st"] == "issued" and n not in credits:
                self.reported.add(n)
                self.problem("meter_mismatches", f"coupon {r['s']} ({n}) seen issued but not on paper")
        for n in dups:
            if n not in self.reported:  # a VLT never prints a coupon again (jurisdiction profile "reprint")
                self.reported.add(n)
                self.problem("meter_mismatches", f"a DUPLICATE of {n} printed under vlt")
        total = sum(credits.values()) + self.coupon_adjust
        if total != m["coupon_out"]:
            kind = "duplicated_credits" if total > m["coupon_out"] else "lost_credits"
            self.problem(kind, f"coupons printed for {total} credits ({len(credits)} numbers), coupon_out "
                               f"{m['coupon_out']}", abs(total - m["coupon_out"]))
            self.coupon_adjust += m["coupon_out"] - total  # report each discrepancy once
        issued = [r["s"] for r in recs if r["st"] == "issued"]
        if issued:  # the system has read them (SAS 4D; the console's `coupons ack`): their slots may go
            self.rig.command(f"coupons ack {min(issued)} {max(issued)}")

    def check_hard_meters(self, m: dict, console) -> None:
        """Each coil must reach its soft meter (pending pulses are driven after the restart) and
        never pass it. Judged once the firmware says no stroke is on its way ('hardmeters json'),
        however long a busy host makes that take."""
        want = {coil: sum(m[name] for name in names) + self.truth.meter_base.get(coil, 0) for coil, names in HARD.items()}
        self.rig.wait_hard_meters(60.0)
        for coil, n in want.items():
            # the last stroke's off line may still be on the wire, and the monitor's thread behind it on a
            # loaded host (make powercut beside make test: meter_games 77 vs 78 after 2 s); only a
            # mismatch waits the whole time
            self.monitor.wait_for(coil, n, 15.0)
        for coil, n in want.items():
            got = self.monitor.counts.get(coil, 0)
            if got != n:
                self.problem("meter_mismatches", f"hard meter {coil} {got} vs soft {n} (strokes the last cut took: "
                                                 f"{self.rig.cut_strokes}, recorded done: {self.rig.unreleased})")
                self.truth.meter_base[coil] = self.truth.meter_base.get(coil, 0) + got - n  # report it once

    def _lock(self, console) -> dict | None:
        for line in console.command("state"):
            if line.startswith("lock: "):  # 'lock: KIND AMOUNT credits ...'
                kind, amount = line[6:].split()[:2]
                return {"kind": kind, "amount": int(amount)}
        return None

    # --- a random stretch of play, cut short by the power ----------------------------------------
    def play_until_cut(self, fw, peer, panel) -> None:
        delay = self.rnd.uniform(0.0, 1.2)
        timer = threading.Timer(delay, fw.kill)
        timer.start()
        try:
            while fw.alive():
                self.action(peer, panel)
        except (OSError, TimeoutError, ValueError, ConsoleClosed):
            pass  # the cut landed mid-action (a console command too: the attendant's reprint)
        finally:
            timer.cancel()
            fw.kill()
            if self.printer is not None:
                with self.printer.lock:  # the printer keeps its power: what the cut left on its paper
                    cur = self.printer._cur
                    if cur is not None and not cur.complete and (cur.lines or cur.number) or \
                            time.monotonic() < self.printer._path_until:  # or still in the paper path
                        self.report["cuts_mid_ticket"] += 1

    def action(self, peer, panel) -> None:
        s = panel.screen
        r = self.rnd.random()
        if self.printer is not None and "printer" in s.get("msg", ""):
            self.attend_printer(panel)
        elif s.get("state") == "idle" and not s.get("credits") and not self.clearing and \
                self.rnd.random() < RAMCLEAR_RATE:
            self.ram_clear(panel)
        elif s.get("state") == "handpay":
            # the lock's own amount: a coin in flight at cash-out may be credited after the lock
            self.truth.pending_lock = {"amount": int(s["msg"].split()[-1])}
            panel.press("key_reset", hold=0.15)
            panel.wait_for(lambda x: x.get("state") != "handpay", 3)
            self.truth.handpaid += self.truth.pending_lock["amount"]
            self.truth.pending_lock = None
        elif self.vlt and r < 0.3 and self.bills.accepting(1):
            self.bills.insert(self.rnd.choice((1, 1, 2, 3)))  # $5, $10, $20: escrow, then stacked or returned
            if self.rnd.random() < 0.25:  # the power goes as it is stacked, the validator's with it (issue 22.4)
                # insert -> poll (<= 0.1 s) -> commit -> route -> STACK_S on its way -> landed -> read (<= 0.1 s)
                time.sleep(self.rnd.uniform(0.0, 0.5))
                self.note_cut = True
                self.rig.fw.kill()
                return
            self.rig.wait_bills(2, 1.0)
        elif r < 0.35 and peer.accepting(TOKEN):
            if peer.insert(TOKEN):
                self.truth.tokens += 1
            self.rig.wait_polls(1, 1.0)  # a validator takes a few coins a second at most: one per poll
        elif r < 0.75 and s.get("credits", 0) >= s.get("bet", 1):
            games = s.get("games", 0)
            panel.press("play")
            new = panel.wait_for(lambda x: x.get("games", 0) > games and x.get("state") != "spin", 3)
            self.truth.shown = {"games": new["games"], "reels": new["reels"]}
        elif r < 0.85 and s.get("credits", 0):
            if self.printer is not None and self.rnd.random() < 0.3:  # the printer fails mid-coupon
                k = self.rnd.randrange(14)
                self.printer.paper_out_after(k) if self.rnd.random() < 0.5 else self.printer.jam_after(k)
            panel.press("cashout")
            if self.printer is not None and self.rnd.random() < 0.3:  # the cut lands while the coupon prints
                # press -> debounce -> commit -> ticket sent -> out of the paper path -> issued: ~0.05-0.5 s
                time.sleep(self.rnd.uniform(0.0, 0.5))
                self.rig.fw.kill()
                return
            panel.wait_for(lambda x: x.get("state") == "handpay" or x.get("credits") == 0, 10)
        elif self.printer is not None and r < 0.87:
            self.rig.command("reprint")  # the attendant asks for a reprint: refused under vlt, nothing printed
        elif r < 0.92:
            door = self.rnd.choice(("door_main", "door_logic", "door_cashbox"))
            panel.set_pin(door, 1)
            panel.wait_for(lambda x: x.get("state") in ("door", "handpay", "jackpot", "spin", "payout"), 1)
            panel.set_pin(door, 0)
            panel.wait_for(lambda x: x.get("state") != "door", 1)
        else:
            self.rig.wait_polls(1, 1.0)

    # --- bit flips ------------------------------------------------------------------------------------
    def flip(self) -> tuple[int, int]:
        """Flip one bit inside live critical memory (read with the firmware's own layout, on the host)."""
        bit = self.rnd.randrange(8)
        return self.rig.flip_bit(self.rnd.randrange(1 << 30), bit), bit

    def detected(self, fw, console) -> bool:
        if any("critical memory:" in line for line in fw.lines):
            return True
        return any(line.startswith("state ramerror") for line in console.command("state"))

    # --- the campaign ------------------------------------------------------------------------------
    def run(self, cuts: int) -> dict:
        first = True
        while self.report["cuts"] < cuts:
            flipped = self.flipped = None
            if not first and self.flip_every and self.report["cuts"] % self.flip_every == 0:
                flipped = self.flipped = self.flip()
                self.report["bitflips"] += 1
            try:
                fw, peer, panel, console = self.boot()
            except (RuntimeError, OSError, TimeoutError) as e:
                self.problem("unrecovered", f"no boot: {e}")
                break
            try:
                if flipped:
                    if self.detected(fw, console):
                        self.report["bitflips_detected"] += 1
                    else:
                        self.report["problems"].append(f"bit flip at {flipped} not detected")
                try:
                    if not first and not self.check(fw, peer, panel, console):
                        break
                except (RuntimeError, TimeoutError, OSError) as e:
                    self.problem("unrecovered", f"check failed: {e}; firmware said {fw.lines[-3:]}")
                first = False
                self.play_until_cut(fw, peer, panel)
                self.report["cuts"] += 1
                if self.progress is not None:
                    self.progress.put(1)
            finally:
                fw.kill()
                self.unplug(peer, panel, console)
                for coil in self.rig.unreleased:  # counted done, cut before its release: that meter one behind
                    self.truth.meter_base[coil] = self.truth.meter_base.get(coil, 0) - 1
                    self.report["strokes_unreleased"] += 1
                if self.printer is not None and not first:
                    try:  # read while the power is off: a coupon committed and not yet issued?
                        recs = self.rig.coupon_records()
                    except Exception:  # noqa: BLE001  memory the firmware itself will judge at the next boot
                        recs = []
                    if recs and recs[-1]["st"] == "owed":
                        self.report["cuts_coupon_owed"] += 1
        self.report["notes_stacked"] = sum(self.bills.stacked.values())
        self.report["notes_returned"] = self.bills.returned
        if self.printer is not None:
            credits, copies, dups = self.paper()
            self.report["coupons"] = len(credits)
            self.report["coupon_reissues"] = sum(n - 1 for n in copies.values())
            self.report["coupon_duplicates"] = len(dups)
        return self.report


FAIL_KEYS = ("lost_credits", "duplicated_credits", "meter_mismatches", "unrecovered")
SUMMARY_KEYS = ("cuts",) + FAIL_KEYS + ("bitflips", "bitflips_detected", "notes_stacked", "notes_returned",
                                        "notes_unproven", "cuts_validator", "strokes_unreleased") + \
    COUPON_FIGURES + RAMCLEAR_FIGURES + RAMERROR_FIGURES


def describe(e: BaseException) -> str:
    """An exception in one line: its type and text, and where it was raised (file:line in function)."""
    where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
    at = f" (at {Path(where[0].filename).name}:{where[0].lineno} in {where[0].name})" if where else ""
    return "".join(traceback.format_exception_only(e)).strip().replace("\n", " ") + at


def stopped(report: dict | None, e: BaseException) -> dict:
    """The report of a session an unexpected exception ended: what it had found, and why it stopped."""
    report = report or dict({k: 0 for k in SUMMARY_KEYS}, problems=[])
    report["unrecovered"] += 1
    report["problems"].append(f"cut {report['cuts']}: the session stopped: {describe(e)}")
    return report


def run_one(args: tuple) -> dict:
    cuts, seed, heap, flip_every, jurisdiction, progress = args
    state = Path(tempfile.mkdtemp(prefix="jeton-powercut-"))
    session = None
    try:
        session = Session(state, seed, heap, flip_every, progress, jurisdiction)
        report = session.run(cuts)
    except Exception as e:  # noqa: BLE001  anything the checks did not expect is a finding, reported, never a silent exit
        report = stopped(session.report if session is not None else None, e)
    finally:
        if session is not None:
            session.close()
        shutil.rmtree(state, ignore_errors=True)
    report["session"] = f"seed {seed}, {jurisdiction}"
    return report


def failures(summary: dict, asked: int) -> list[str]:
    """Every check the campaign failed, in words (empty: it passed)."""
    why = [f"{k} {summary[k]}" for k in FAIL_KEYS if summary[k]]
    if summary["bitflips"] != summary["bitflips_detected"]:
        why.append(f"{summary['bitflips'] - summary['bitflips_detected']} of {summary['bitflips']} bit flips not detected")
    if summary["cuts"] < asked:
        why.append(f"only {summary['cuts']} of {asked} cuts")
    return why


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.powercut", description=__doc__.splitlines()[0])
    ap.add_argument("--cuts", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=8, help="independent sessions run in parallel")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--flip-every", type=int, default=10, help="flip a bit before every Nth reboot (0: never)")
    ap.add_argument("--heap", default=None, help="the firmware's fixed heap (default: the board's, sim/harness.py BOARD_HEAP)")
    ap.add_argument("--jurisdiction", choices=("casino", "vlt", "both"), default="both",
                    help="the cabinets' profile: both (default) runs every other session as a vlt taking notes")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    per = [args.cuts // args.jobs + (1 if i < args.cuts % args.jobs else 0) for i in range(args.jobs)]
    juris = [args.jurisdiction if args.jurisdiction != "both" else ("casino", "vlt")[i % 2] for i in range(args.jobs)]
    work = [(n, seed + i, args.heap, args.flip_every, juris[i]) for i, n in enumerate(per) if n]
    print(f"power-cut campaign: {args.cuts} cuts in {len(work)} sessions, seed {seed}", file=sys.stderr)
    t0 = time.monotonic()
    try:
        reports = parallel(run_one, work, args.cuts, "cut", not args.no_progress)
    except Exception as e:  # noqa: BLE001  a session's process died (killed, out of memory): its figures are lost
        reports = [stopped(None, e)]
        reports[0]["session"] = "a worker process"
    minutes = (time.monotonic() - t0) / 60
    summary = {k: sum(r[k] for r in reports) for k in SUMMARY_KEYS}
    summary["seed"] = seed
    summary["cuts_per_minute"] = round(summary["cuts"] / minutes, 1) if minutes else None
    for r in reports:
        for p in r["problems"][:20]:
            print(f"  {r['session']}: {p}", file=sys.stderr)
    print(json.dumps(summary), flush=True)
    why = failures(summary, args.cuts)
    if why:  # the last line above make's "Error 1": what failed, and how to run the same campaign again
        again = f"python -m sim.powercut --cuts {args.cuts} --jobs {args.jobs} --seed {seed}" + \
            (f" --jurisdiction {args.jurisdiction}" if args.jurisdiction != "both" else "")
        print(f"powercut: FAILED, seed {seed}: {'; '.join(why)} (again: {again})", file=sys.stderr)
    return 1 if why else 0


if __name__ == "__main__":
    sys.exit(main())
