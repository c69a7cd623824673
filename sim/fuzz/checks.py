"""After every fuzz step: let it finish, observe the cabinet (console, screen, peers) and hold what
was observed to the oracle's invariants (sim/fuzz/oracle.py). A mixin of the rules' machine
(sim/fuzz/machine.py): the model's state is the rules' (sim/fuzz/rules.py)."""
from __future__ import annotations

import json
import sys
import time

from hypothesis.stateful import invariant

from sim.fuzz import oracle
from sim.fuzz.games import MODELS, game, progressive
from sim.fuzz.inputs import TOKEN_CENTS, VLT_LIMITS, VLT_MAX_PRIZE_CENTS
from sim.fuzz.oracle import Truth, Violation
from sim.fuzz.rules import UNRESPONSIVE, where


class Checks:
    @invariant()
    def check(self) -> None:
        if self.failed or self.skipped or self.rig is None:
            return
        try:
            self._check()
        except Violation as v:
            self.found(v)
        except UNRESPONSIVE as e:
            try:
                if not self.rig.alive():
                    self._check_process()  # it died while being checked: say how
                raise Violation("unresponsive", f"checking after {self.step_kind}: {e!r}{where(e)}")
            except Violation as v:
                self.found(v)

    def _check_process(self) -> None:
        rig = self.rig
        new = rig.restarts(self.lines_seen)
        lines = rig.fw.lines
        tail = lines[-12:]
        if new:  # what led to the first restart (its traceback), which a long step's tail has scrolled past
            first = lines.index(new[0], self.lines_seen)
            tail = lines[max(self.lines_seen, first - 14):first + 1]
        self.lines_seen = len(lines)
        oracle.process(new, rig.exit_status(), self.step_kind, tail)

    def _check(self) -> None:
        rig = self.rig
        self._check_process()
        self._settle()
        self._check_process()
        s = dict(rig.screen)
        if s.get("state") == "ramerror":
            if not self.expect_ramerror:
                raise Violation("ramerror", f"RAM error after {self.step_kind}: {rig.fw.lines[-8:]}")
            self._ram_clear()
            self.expect_ramerror = False
            return
        m = rig.console_json("meters json")
        lines = rig.command("state")
        self.tilts = oracle.tilts(lines, self.tilts, self.step_kind, self.keyed)
        oracle.rng_tilt_injected(self.tilts, self.entropy_stuck)
        note = self._check_vlt(m, s, lines) if self._vlt() else None
        played = self._check_money(m, note)
        try:
            self._check_screen(m, s)
        except Violation:  # the display may trail a commit by a loop pass: judge it once more
            rig.wait_polls(2, 1.0)
            s = dict(rig.screen)
            m = rig.console_json("meters json")
            played = self._check_money(m, note)
            self._check_screen(m, s)
            lines = rig.command("state")  # read after the meters, as above (the SAS check's open game and lock)
        self._check_progressive(m, s, lines)
        self._check_hard_meters(m)
        self._check_sas(m, lines)  # what the central system reads (sim/fuzz/rules_sas.py)
        self.truth.meters = m
        self.rec.add("games_played", played)
        if self.rec.debug:
            log = self.rec.log
            print(f"{self.step_kind:18} {log[-1][1] if log else ''} -> {s.get('state')} credits "
                  f"{s.get('credits')} bet {s.get('bet')} games {s.get('games')} {s.get('msg')!r}", file=sys.stderr)
        self.expect_ramerror = False
        self.hand_paid = 0
        self.sas_did = {"closes": {}, "clears": 0, "cashouts": 0}
        self.keyed = False
        self.plays = 0

    def _check_money(self, m: dict, note: dict | None) -> int:
        rig = self.rig
        played = oracle.money(m, self.truth, rig.bills.stacked_cents, self._denom(), TOKEN_CENTS, rig.hopper.coins_out,
                              rig.hopper.remaining, self.step_kind, self.hand_paid, self.plays, note)
        recs = rig.console_json("coupons json") if self._vlt() else []  # before the paper: a coupon may finish
        paper = self._paper()
        oracle.coupons(m, recs, paper, self.truth.old_coupons, self.step_kind)
        self.sas_issued = oracle.issued(recs, paper, self.truth.old_coupons) if self._vlt() else None  # SAS 3D
        oracle.numbers_unique(paper, self.numbers, self.step_kind)
        self.numbers.update(paper)
        oracle.numbers_unique(paper, self.rec.numbers, self.step_kind)  # and another machine's of this session
        for n, k in paper.items():
            self.rec.numbers.setdefault(n, k)
        if self._vlt():
            oracle.coupon_only(self.paid_out, m, self.step_kind)
            oracle.records_kept(self.kept, recs, self.step_kind)
            self.kept.update({r["s"]: r["n"] for r in recs if r["st"] != "acked"})
            for r in recs:
                if r["st"] == "acked":
                    self.kept.pop(r["s"], None)
        return played

    def _check_vlt(self, m: dict, s: dict, lines: list[str]) -> dict | None:
        """A vlt's: the note of unknown fate (caused, money in stopped while it stands), money in
        stopped while the coupon memory says stop, never a jackpot lock nor a game above the prize
        limit. Returns the note of unknown fate standing, if any."""
        rig = self.rig
        notes = rig.console_json("note json")
        oracle.unknown_note_caused(self.unproven, notes["unproven"], self.unknown_cause, self.step_kind)
        self.unproven = notes["unproven"]
        self.note_standing = notes["note"] is not None
        coins = rig.peer.accepting(self._token_position())
        bills = any(rig.bills.accepting(t) for t in rig.bills.bills)
        oracle.unknown_note_stops_money(notes["note"], s, coins, bills)
        oracle.stop_means_no_money(rig.console_json("validation json"), coins, bills)
        lock = oracle.lock(lines)
        oracle.vlt_prizes(lock[0] if lock else None, rig.console_json("recall json")["games"], self._denom(),
                          VLT_MAX_PRIZE_CENTS)
        if "acceptor" not in self.tilts and rig.bills.escrow is None and rig.bills.transport is None:
            self.unknown_cause = False  # nothing pending any more: no fate left to lose
        return notes["note"]

    def _paper(self) -> dict[str, int]:
        p = self.rig.printer
        with p.lock:
            tickets = [(t.number, list(t.lines)) for t in p.tickets[self.truth.ticket_base:]]
        return oracle.paper(tickets, self.truth.old_coupons, self.step_kind)

    def _check_screen(self, m: dict, s: dict) -> None:
        rig = self.rig
        if s.get("test"):
            return  # the technician's test game: a frame of its own (its window and win only)
        oracle.limits_shown(s, VLT_LIMITS if rig.running == "vlt" else None)
        spec = progressive(s["id"]) if s.get("id") in MODELS else None
        if spec:
            oracle.jackpot_shown(spec, s)
        if s.get("state") in ("audit", "service"):
            return
        recall = rig.console_json("recall json")["games"]

        def replay(last: dict) -> list | dict | None:
            if last.get("id") not in MODELS:
                return None
            g = game(last["id"])
            if hasattr(g, "play_round"):  # a table round: what was drawn and each wager's result (firmware/play_table.py)
                o = g.evaluate_round(last["bet"], last["draws"])
                return {"table": o.window, "results": o.results}
            if hasattr(g, "evaluate_round"):  # a card table's round: the cards the player saw at its end
                o = g.evaluate_round(last["bet"], last["draws"])  # (War's cards of a war not fought stay down)
                return [o.window[0][:g.shown(o.stake, o.cards, o.decisions)]]
            return g.evaluate(last["bet"], last["draws"]).window

        def events() -> list:
            return rig.console_json("events json").get("events") or []

        oracle.screen(m, s, recall, replay, events)
        last = recall[-1] if recall else None
        reels = last is not None and last.get("id") in MODELS and not hasattr(game(last["id"]), "spots") \
            and not hasattr(game(last["id"]), "suggest") and not hasattr(game(last["id"]), "evaluate_round")
        award = game(last["id"]).evaluate(last["bet"], last["draws"]).award if reels else None
        oracle.outcome_shown(s, last, award)

    def _check_progressive(self, m: dict, s: dict, lines: list[str]) -> None:
        """The progressive's units: each game at its bet feeds it exactly, judged between two steps
        whose games the recall still holds all of (a power step or a preset starts afresh)."""
        spec = progressive(s["id"]) if s.get("id") in MODELS else None
        units = oracle.progressive_units(lines)
        if spec is None or units is None:
            self.prog = None
            return
        total = units[0] + units[1]
        prev, self.prog = self.prog, (total, m["progressive_paid"], m["games_played"])
        linked = oracle.linked_state(lines) is not False
        levels = {oracle.linked_level(c, self._denom(), spec) for c in self.link_levels}
        sas = getattr(self, "sas", None)
        if sas is not None:
            self.link_levels = {sas.cents}  # the level in force from now on
        if linked:
            # the level the controller broadcast last, bounded, shown on the screen and the console
            # (heard at once: a rule may have kept the keep-alive's broadcasts back a while)
            self._link_heard()
            want = oracle.linked_level(sas.cents, self._denom(), spec)
            try:
                oracle.linked_shown(self.rig.screen, self.rig.command("state"), want, self.step_kind)
            except Violation:  # the display may trail the broadcast by a loop pass: judged once more
                self.rig.wait_polls(2, 1.0)
                oracle.linked_shown(self.rig.screen, self.rig.command("state"), want, self.step_kind)
        if prev is None or self.step_kind in ("power", "progressive_preset", "basis", "operator_config",
                                              "security", "coupon_memory", "ramclear"):
            return
        recall = self.rig.console_json("recall json")["games"]
        new = [g for g in recall if g["n"] > prev[2]]
        if m["games_played"] - prev[2] != len(new) or any(g["id"] != s["id"] for g in new):
            return  # a game voided, or more than the recall holds, or another game's: not judged
        if linked:  # each hit paid the controller's level in force at its wager (the fuzz's record)
            oracle.linked_paid(new, levels, self.step_kind)
        oracle.progressive_grew(spec, prev[0], total, prev[1], m["progressive_paid"], new, linked)

    def _check_hard_meters(self, m: dict) -> None:
        """Judged only when the firmware says no stroke is on its way (and it drives them: a power-up
        that found a RAM error opens no meter coils, nor the hopper or the bill validator, until the
        next one, whatever the technician's clear)."""
        rig = self.rig
        out = rig.command("hardmeters json")
        if out and out[-1].startswith("no electromechanical meters") or json.loads(out[-1])["busy"]:
            return
        want = oracle.hard_want(m, self.truth.meter_base)
        # the last stroke's off line may be on the wire, and the monitor's thread behind it on a loaded
        # host (make test beside a fuzz run: meter_drop 47 vs 48 after 2 s); only a mismatch waits it all
        got = {coil: rig.monitor.wait_for(coil, n, 15.0) for coil, n in want.items()}
        oracle.hard_meters(want, got, self.step_kind)

    def _ram_clear(self) -> None:
        """The administrator's RAM clear after a detected corruption: the model starts again from zero."""
        rig = self.rig
        rig.panel.set_pin("key_audit", 1)
        time.sleep(0.1)  # past the key's debounce
        out = rig.command("ramclear")
        try:
            rig.wait_screen(lambda s: s.get("state") != "ramerror", 5.0)
        except TimeoutError:
            raise Violation("ramclear", f"still a RAM error after 'ramclear': {out}") from None
        finally:
            self._audit_key_back()
        self._cleared()

    def _cleared(self) -> None:
        """The books start again from zero: the model's truth too (coins still in the acceptor's
        buffer must not be credited again; the coupon memory outlives the clear, and what it keeps
        is not counted against the new books)."""
        rig = self.rig
        kept = {r["n"] for r in rig.console_json("coupons json")} if rig.running == "vlt" else set()
        self.tilts = set()
        self.truth = Truth()
        self.truth.hopper_base = rig.hopper.coins_out
        self.truth.bill_base = rig.bills.stacked_cents
        with rig.printer.lock:
            self.truth.ticket_base = len(rig.printer.tickets)
        self.truth.old_coupons = kept
        self.truth.meter_base = dict(rig.monitor.counts)
        self.prog = None
        self.unproven = 0
        self.paid_out = {k: 0 for k in oracle.PAID_BY_HAND_OR_HOPPER}
        # the clear's log starts with its own `basis` event: the books' basis is the one it runs under
        events = rig.console_json("events json").get("events") or []
        self.basis_seen = max([0] + [e[0] for e in events if e[2] == "basis"])
        self.running_basis = (rig.running, rig.screen.get("cents", self._denom()))
