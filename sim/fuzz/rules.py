"""The fuzz campaign's rules for any cabinet: a player's presses, coins, the acceptor's and the
hopper's faults, doors and keys, console commands, power cuts (the bill validator's too), bit flips,
reboots with another game set, the entropy source. The vlt's rules are in sim/fuzz/rules_vlt.py, the
technician's and the operator's in sim/fuzz/rules_service.py; sim/fuzz/machine.py puts them together.

Each rule acts on one emulated cabinet (sim/fuzz_rig.py `Rig`), records in the model (`Truth`,
sim/fuzz/oracle.py) what the peers did, and may call the oracle for what that one step must have
done; after every step sim/fuzz/checks.py lets it finish and holds the cabinet to the invariants.
Preconditions read the model's state only, never the process's: hypothesis must see the same rules
when it plays a sequence again.
"""
from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
import time
import traceback
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from firmware import config
from sim.fuzz import oracle
from sim.fuzz.games import CERTS, GAME_SETS, VLT_SETS, bets, progressive
from sim.fuzz.inputs import (
    ACCEPTOR_KINDS,
    ENTROPY,
    FAULT_CODES,
    FRAUD_CODES,
    HOPPER_FAULTS,
    JURISDICTIONS,
    LINE_MAX,
    LINK_GROUPS,
    LINK_START_CENTS,
    PLAYER,
    POWER_DURING,
    PRIVILEGED,
    QUICK_SPOTS,
    READ_COMMANDS,
    REJECT_CODES,
    SWITCHES,
    TOKEN_CENTS,
    TOKEN_ID,
    UNKNOWN_POSITION,
)
from sim.fuzz.oracle import Truth, Violation
from sim.fuzz.record import Recorder
from sim.fuzz_rig import Rig
from tools import firmware as fwbuild
from tools import operator
from tools.console import ConsoleClosed

# the technician's, the operator's and the test bench's rules that power the cabinet down or clear
# it: each at least CALM steps after the last, so that a sequence still mostly plays
SERVICE = ("ramclear", "basis", "operator_config", "security", "coupon_memory", "progressive_preset")
CALM = 4
# a casino's ticket reader (settings.json TICKET_IN, the rule sas_ticket_in: docs/campaigns.md) on
# every casino boot: off unless FUZZ_TICKETS=1. On, seed 25's second step (sicbo-83, the security
# memory lost) ran out of heap in the enrolment's RSA with the reader's BillIn loaded (the base passes
# the same sequence): a casino cabinet with a ticket reader does not fit every game's heap yet
TICKETS = os.environ.get("FUZZ_TICKETS") == "1"
# what a step that lost the cabinet under it raises (a dead link, a console gone, a timeout)
UNRESPONSIVE = (OSError, TimeoutError, RuntimeError, ValueError, ConsoleClosed)


def where(e: BaseException) -> str:
    """ ' (at FILE:LINE in FUNCTION)' of the innermost frame an exception came from."""
    tb = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
    return f" (at {Path(tb[0].filename).name}:{tb[0].lineno} in {tb[0].name})" if tb else ""


def logged(fn):
    """Record each step (rule name and arguments) so a failing sequence can be written and replayed."""
    @functools.wraps(fn)
    def step(self, **kw):
        if self.skipped or self.rec.spent():
            return None
        if self.failed:  # the rest of a failed sequence runs unchecked (its steps keep the model's
            try:         # state, so hypothesis sees the same rules if it plays the sequence again)
                fn(self, **kw)
            except Exception:  # noqa: BLE001  nothing is judged any more
                pass
            return None
        self.rec.step(fn.__name__, kw)  # a step: counted here, checked by check() after it
        self.step_kind = fn.__name__
        self.calm = 0 if fn.__name__ in SERVICE else self.calm + 1
        try:
            return fn(self, **kw)
        except UNRESPONSIVE as e:
            if self.rig is not None and not self.rig.alive():
                return None  # it died under the step: check() reports how
            return self.found(Violation("unresponsive", f"{fn.__name__}({kw}): {e!r}{where(e)}"))
        except Violation as v:
            return self.found(v)
    return step


class CabinetRules(RuleBasedStateMachine):
    def __init__(self, rec: Recorder | None = None) -> None:
        super().__init__()
        self.rec = rec if rec is not None else Recorder()
        # a campaign skips hypothesis's first example of each run, its simplest (every choice the
        # smallest: a casino cabinet's empty meter cashed out forty times), and a spent budget the rest
        self.skipped = self.rec.take_skip() or self.rec.spent()
        self.tmp = Path(tempfile.mkdtemp(prefix="jeton-fuzz-"))
        self.rig: Rig | None = None
        self.truth = Truth()
        self.levels: dict[str, int] = {}  # switches held (doors open, keys on): they survive a power cut
        self.step_kind = "boot"
        self.lines_seen = 0
        self.expect_ramerror = False  # a bit flipped or memory lost while off: a RAM error may follow
        self.dated: bool | None = None
        self.plays = 0
        self.hand_paid = 0  # locks the attendant's key cleared in this step
        # the model's counts since the last check (sim/fuzz/oracle.py sas_expected): doors closed, locks paid,
        # cash-out presses
        self.sas_did: dict = {"closes": {}, "clears": 0, "cashouts": 0}
        self.tilts: set[str] = set()
        self.keyed = False  # the attendant's key turned during this power step
        self.acceptor_counter: int | None = None
        self.failed = False
        self.calm = CALM  # steps since the last of the SERVICE rules
        # the money basis: what the books run under (jurisdiction, cents a credit), what the operator
        # configured (a change waits while money is owed), and the configuration's number signed last
        self.running_basis: tuple[str, int] | None = None
        self.asked: tuple[str, int] = ("casino", config.DENOM_CENTS)
        self.config_no = 0
        self.basis_seen = 0  # the number of the newest `basis` event read
        self.floors: dict[str, int] = {}
        self.unknown_cause = False  # the validator lost its power, or a counter fault struck a pending note
        self.unproven = 0  # notes of unknown fate counted so far (`note json`)
        self.note_standing = False  # one stands now (`note json`, after the last step)
        self.entropy_stuck = False
        self.kept: dict[int, str] = {}  # coupon records seen and not acknowledged: sequence -> number
        self.numbers: dict[str, int] = {}  # every control number seen on paper -> its credits
        self.prog: tuple[int, int, int] | None = None  # progressive units, progressive_paid, last recall n
        self.paid_out: dict[str, int] = {}  # hopper_out, cancelled, jackpot when the books' basis began
        self.link: dict | None = None  # PROGRESSIVE_LINK of a linked sequence (power_on `link`)
        self.link_cents = 0  # its controller's level 1 now, in cents
        self.link_levels: set[int] = set()  # the levels (cents) in force since the last check
        if not self.skipped:
            self.rec.start_sequence()

    # --- the model -----------------------------------------------------------------------------------
    def _playable(self) -> bool:
        # powered on; or not run at all (skipped, or the budget spent), where a rule must still be
        # there for hypothesis to draw, though it does nothing
        return self.rig is not None or self.skipped or self.rec.spent()

    def _calm(self) -> bool:
        return self._playable() and self.calm >= CALM

    def _vlt(self) -> bool:
        """The books run under vlt (a change of jurisdiction may wait for money owed)."""
        return self.rig is not None and self.running_basis is not None and self.running_basis[0] == "vlt"

    def _denom(self) -> int:
        return self.running_basis[1] if self.running_basis else config.DENOM_CENTS

    def _token_credits(self) -> int:
        return TOKEN_CENTS // self._denom()

    # --- power ---------------------------------------------------------------------------------------
    @initialize(games=st.sampled_from(GAME_SETS), juris=st.sampled_from(JURISDICTIONS),
                vlt_games=st.sampled_from(VLT_SETS), link=st.sampled_from(LINK_GROUPS),
                link_cents=st.sampled_from(LINK_START_CENTS))
    @logged
    def power_on(self, games: tuple[str, ...], juris: str = "casino", vlt_games: tuple[str, ...] | None = None,
                 poll_ms: int | None = None, link: int | None = None, link_cents: int = 0) -> None:
        """poll_ms: the operator's ACCEPTOR_POLL_MS (settings.json, casino only; config.py's unless
        given): the scripted walks of every game and bet level poll faster, as a setting allows, since
        the rig's clock is the firmware's polls (tests/host/test_stateful.py). link: a casino
        cabinet whose progressive is linked through SAS to that group (settings.json
        PROGRESSIVE_LINK, docs/sas.md "The linked progressive"), played on a sept-royal set when
        the set drawn has no progressive first; its controller, on the SAS line, broadcasts level 1
        at `link_cents` (sim/fuzz/rules_sas.py sas_progressive)."""
        if juris == "vlt" and vlt_games:
            games = vlt_games
        if link and juris == "casino":
            if progressive(games[0]) is None:
                games = ("sept-royal-87",)
            self.link = {"id": f"floor-{link}", "bet": progressive(games[0])["bet"], "group": link,
                         "math_hash": json.loads((CERTS / f"{games[0]}.json").read_text())["math_hash"]}
            self.link_cents = link_cents
        # the printer is wired whatever the jurisdiction (it may change), and the operator's
        # configuration is signed here, by the rules, never behind their back by the harness
        self.rig = Rig(self.tmp / "state", tuple(games), jurisdiction=juris, printer=True, sign_config=False,
                       sas=True)
        if poll_ms is not None:
            assert juris == "casino", "under vlt a settings.json is a config tilt (rules_service.py)"
            self.rig.state.mkdir(parents=True, exist_ok=True)
            (self.rig.state / "settings.json").write_text(json.dumps({"ACCEPTOR_POLL_MS": poll_ms}))
        self._ticket_settings(juris)
        self._sas_start()  # the central system on the SAS line (sim/fuzz/rules_sas.py)
        self.asked = (juris, config.DENOM_CENTS)
        if juris == "vlt":
            self._sign(juris, config.DENOM_CENTS, tuple(games))
        self._boot()
        self._booted(owed=False)

    def _ticket_settings(self, juris: str) -> None:
        """STATE/settings.json's TICKET_IN for the next boot: a casino's ticket reader (the bill
        validator reads barcoded tickets the SAS system redeems: docs/sas.md "Ticket in",
        sim/fuzz/rules_sas.py sas_ticket_in); none under vlt, which refuses it (a config tilt).
        And PROGRESSIVE_LINK, a linked sequence's (power_on `link`), casino only likewise."""
        f = self.rig.state / "settings.json"
        self.rig.state.mkdir(parents=True, exist_ok=True)
        d = json.loads(f.read_text()) if f.exists() else {}
        if juris == "casino" and TICKETS:
            d["TICKET_IN"] = True
        else:
            d.pop("TICKET_IN", None)
        if juris == "casino" and self.link:  # settings.json under vlt is a config tilt
            d["PROGRESSIVE_LINK"] = self.link
        else:
            d.pop("PROGRESSIVE_LINK", None)
        if d:
            f.write_text(json.dumps(d))
        else:
            f.unlink(missing_ok=True)

    def _sign(self, juris: str, denom: int, games: tuple[str, ...], number: int | None = None,
              key: Path | None = None, machine: str | None = None) -> int:
        """The operator signs STATE/operator.json (the next number unless told); returns its number."""
        number = self.config_no + 1 if number is None else number
        self.rig.state.mkdir(parents=True, exist_ok=True)
        if key is None and not fwbuild.DEV_OPERATOR_KEY.is_file():
            fwbuild.operator_pub()  # the build makes the development operator key once
        operator.sign_config(self.rig.state / "operator.json", key or fwbuild.DEV_OPERATOR_KEY, number,
                             machine or config.MACHINE_ID, juris, denom, list(games))
        self.config_no = max(self.config_no, number)
        return number

    def _boot(self, system: bool = True) -> None:
        assert self.rig is not None
        try:
            self.rig.boot(system=system)
        except (RuntimeError, TimeoutError, OSError) as e:
            raise oracle.no_boot(self.rig.exit_status(), str(e)) from None
        self._sas_booted()
        self.lines_seen = 0
        self.acceptor_counter = None  # a fresh boot reads the acceptor's buffer
        for name, level in self.levels.items():  # a door left open stays open through the cut
            if level:
                self.rig.panel.set_pin(name, 1)
        if self.levels:
            time.sleep(0.1)  # past the 30-50 ms debounce of the switches

    def _booted(self, owed: bool | None) -> None:
        """After a power-up: the basis it runs under against the books' and the operator's (`owed`:
        whether money was owed under the old one when the power went; None: not known, the cut
        landed mid-action), the board's floors never down."""
        rig = self.rig
        now = (rig.running, rig.screen.get("cents", config.DENOM_CENTS))
        floors = rig.floors()
        oracle.floors_up(self.floors, floors, rig.fw.ready.get("software") or "")
        self.floors = floors
        if rig.screen.get("state") == "ramerror":
            return  # the books cannot say; the RAM clear that follows starts a new basis
        events = rig.console_json("events json").get("events") or []
        new = [e for e in events if e[2] == "basis" and e[0] > self.basis_seen]
        self.basis_seen = max([self.basis_seen] + [e[0] for e in new])
        if self.running_basis is not None:
            oracle.basis_after_boot(self.running_basis, self.asked, owed, now, len(new))
        if now != self.running_basis:  # the change taken: coins and notes are worth another number of credits
            m = rig.console_json("meters json")
            self.truth.rebase(m, rig.hopper.coins_out, rig.bills.stacked_cents)
            self.running_basis = now
            self.paid_out = {k: m[k] for k in oracle.PAID_BY_HAND_OR_HOPPER}

    def _cut(self, hopper_too: bool = False, validator_too: bool = False, held: str = "front",
             transport: str = "cashbox") -> None:
        assert self.rig is not None
        self.rig.cut(hopper_too, validator_too, held, transport)
        self.rec.add("power_cuts")
        for coil in self.rig.unreleased:  # counted done, cut before its release: one behind (docs/campaigns.md)
            self.truth.meter_base[coil] = self.truth.meter_base.get(coil, 0) - 1
            self.rec.add("strokes_unreleased")
        if validator_too:
            self.unknown_cause = True  # a note held or on its way when the validator reset: its fate unknown

    def teardown(self) -> None:
        try:
            self._sas_stop()
            if self.rig is not None:
                self.rig.shutdown()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # --- a player ------------------------------------------------------------------------------------
    @precondition(_playable)
    @rule(actions=st.lists(st.sampled_from(PLAYER), min_size=1, max_size=10))
    @logged
    def player(self, actions: list[str]) -> None:
        """A player's run of presses: tokens enough for the smallest bet, bets, games, cash-outs."""
        rig = self.rig
        self.plays = sum(a in ("play", "bet_max") for a in actions)
        if rig.screen.get("state") in ("handpay", "jackpot", "tilt"):
            # a player at a locked or tilted machine calls the attendant before anything else (a lock
            # or tilt otherwise outlasts whole sequences: seed 61 played no game in 320 steps)
            self._key()
            if " waits: " in rig.screen.get("msg", ""):  # the operator's change waits for the credits
                self._cashout(None)
        for i, a in enumerate(actions):
            if a in ("hold", "auto"):
                rig.panel.touch(a, i % 5 + 1 if a == "hold" else 0)  # taken only while a hand waits
                rig.wait_polls(2, 1.0)
            elif a == "token":
                bet = max(rig.screen.get("bet") or 1, min(bets(rig.games) or (1,)))
                self._insert(-(-bet // self._token_credits()))  # enough for the bet shown
            elif a == "key":
                self._key()
            elif a == "cashout":
                self._cashout(None)
            elif a == "quick":
                rig.panel.touch("quick", QUICK_SPOTS)
                rig.wait_polls(2, 1.0)
            else:
                self._press(a)
                self._await_game_or_refusal()
                self._settle()

    @precondition(_playable)
    @rule(actions=st.lists(st.sampled_from(PLAYER), min_size=1, max_size=10))
    @logged
    def player_again(self, actions: list[str]) -> None:
        """The same as player: a second rule so that players get twice the share of steps."""
        self.player.__wrapped__(self, actions=actions)

    def _press(self, button: str) -> None:
        """Held until the firmware has polled the acceptor twice: its main loop has then read the
        press and timed it past the debounce on its own clock. (A fixed hold is not enough on a busy
        host: press and release can reach the firmware in the same pass and be debounced away.)"""
        rig = self.rig
        if button == "cashout" and self.sas_did["cashouts"] is not None:
            self.sas_did["cashouts"] += 1  # SAS 66 (sim/fuzz/oracle.py sas_expected)
        rig.panel.set_pin(button, 1)
        time.sleep(0.06)  # past the 30-50 ms debounce even when the polls come quickly
        rig.wait_polls(2, 1.0)
        rig.panel.set_pin(button, 0)

    def _key(self) -> None:
        """The attendant's key: a lock it clears is paid by hand, its amount and nothing else."""
        rig = self.rig
        before = self._lock()
        credits = rig.screen.get("credits", 0)
        self._press("key_reset")
        rig.wait_polls(2, 1.0)  # what it clears (a hopper reset) done before the next press
        if before:
            # cleared: no lock, or a new one (a cash-out kept while locked is carried out at once: its
            # lock may look the same, but the credits it paid are gone)
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline:
                now = self._lock()
                if now != before or rig.screen.get("credits", 0) != credits:
                    self.hand_paid += before[1]
                    self.sas_did["clears"] += 1  # SAS 52 (sim/fuzz/oracle.py sas_expected)
                    break
                time.sleep(0.02)

    def _lock(self) -> tuple[str, int] | None:
        return oracle.lock(self.rig.command("state"))

    def _cashout(self, hopper_cut: float | None) -> None:
        """Credits belong to the player: a cash-out pays them (hopper, hand pay, coupon) in every
        state but a RAM error, or says why not."""
        rig = self.rig
        self._settle()
        before = rig.screen.get("credits", 0)
        tilts = self._tilt_lines()
        dispenses = rig.hopper.dispenses
        self._press("cashout")
        if hopper_cut is not None:
            try:
                rig.wait_screen(lambda s: s.get("state") == "payout", 1.0)
                time.sleep(hopper_cut)  # a random instant of the payout
                rig.hopper.power_cycle()
            except TimeoutError:
                pass
        try:
            rig.wait_screen(lambda s: s.get("credits") != before or s.get("state") in ("handpay", "payout"), 1.0)
        except TimeoutError:
            pass
        self._settle()
        s = rig.screen
        if before and s.get("credits") == before:  # judged only then: the console read costs a command
            lines = rig.command("state")
            tried = rig.hopper.dispenses != dispenses  # the hopper was asked (and ran dry: its tilt says so)
            oracle.cashout_paid(before, s, oracle.lock(lines) is not None, tried,
                                not {ln for ln in lines if ln.startswith("tilt ")} <= tilts, lines)

    def _tilt_lines(self) -> set[str]:
        return {ln for ln in self.rig.command("state") if ln.startswith("tilt ")}

    def _insert(self, n: int) -> None:
        rig = self.rig
        pos = self._token_position()
        for _ in range(n):
            if not rig.peer.accepting(pos):
                rig.wait_polls(3, 1.0)  # acceptance comes back a poll after a game or a payout ends
                if not rig.peer.accepting(pos):
                    break
            if rig.peer.insert(pos):
                self.truth.coins_low += self._token_credits()
                self.truth.coins_high += self._token_credits()
            rig.wait_polls(1)  # a validator takes a few coins a second at most

    def _token_position(self) -> int:
        return next(p for p, ident in self.rig.peer.coins.items() if ident == TOKEN_ID)

    @precondition(_playable)
    @rule(n=st.integers(1, 30))
    @logged
    def tokens(self, n: int) -> None:
        self._insert(n)

    @precondition(_playable)
    @rule(kind=st.sampled_from(ACCEPTOR_KINDS), i=st.integers(0, 3), k=st.sampled_from((1, 2, 4, 5, 6, 7, 20, 250)))
    @logged
    def acceptor(self, kind: str, i: int, k: int) -> None:
        """Coins the firmware must refuse, acceptor faults and frauds, lost events, counter faults."""
        peer = self.rig.peer
        if kind == "lost":  # k coins validated while nobody polled: at most five still in the buffer
            if peer.accepting(self._token_position()):  # an inhibited acceptor validates no coin
                peer.lose_events(k)
                self.truth.coins_high += k * self._token_credits()
        elif kind == "replay":  # the counter k steps back with the same buffer: nothing new to credit
            peer.replay(k)
        elif kind == "jump":
            # k forwards beyond the buffer with no new event: nothing can be proven. (A jump of 5 or
            # less is indistinguishable from that many coins: the buffer is the acceptor's word.)
            if k > 5:
                peer.jump(k)
        elif kind == "unknown":
            peer.insert(UNKNOWN_POSITION)
        elif kind == "foreign":
            foreign = [p for p, ident in peer.coins.items() if ident != TOKEN_ID]
            if foreign:
                peer.insert(foreign[i % len(foreign)])
        else:
            codes = {"reject": REJECT_CODES, "fault": FAULT_CODES, "fraud": FRAUD_CODES}[kind]
            peer.error(codes[i % len(codes)])
        self.rig.wait_polls(2)

    def _await_game_or_refusal(self) -> None:
        # the main loop takes a press and polls the acceptor in the same pass: one whole poll after
        # the release, a game has started (and _settle waits for its reels) or the press was refused
        self.rig.wait_polls(2, 1.0)

    @precondition(_playable)
    @rule(hopper_cut=st.one_of(st.none(), st.floats(0.0, 0.3)))
    @logged
    def cashout(self, hopper_cut: float | None) -> None:
        self._cashout(hopper_cut)

    # --- hopper faults ---------------------------------------------------------------------------------
    @precondition(_playable)
    @rule(fault=st.sampled_from(HOPPER_FAULTS), k=st.integers(0, 5))
    @logged
    def hopper_fault(self, fault: str, k: int) -> None:
        hopper = self.rig.hopper
        if fault == "jam":
            hopper.jam_after(k)
        elif fault == "empty":
            hopper.stock = 0
        elif fault == "low":
            hopper.stock = k
        else:
            hopper.stock = 100000

    # --- doors and keys ----------------------------------------------------------------------------------
    def _audit_key_back(self) -> None:
        """The audit key back where the sequence left it; turned off, not left until the cabinet has
        seen it off (its debounce: a command sent sooner still finds the key on, and a technician's
        `testgame` after a RAM clear played in `service`, a race of the test, not a fault)."""
        rig = self.rig
        rig.panel.set_pin("key_audit", self.levels.get("key_audit", 0))
        if self.levels.get("key_audit"):
            return
        rig.wait_polls(2)  # past the debounce even where the screen cannot say it (a door's state hides audit)
        try:
            rig.wait_screen(lambda s: s.get("state") not in ("audit", "service"), 5.0)
        except TimeoutError:
            raise Violation("key", f"the audit key off, the cabinet still in {rig.screen.get('state')}") from None

    @precondition(_playable)
    @rule(name=st.sampled_from(SWITCHES))
    @logged
    def switch(self, name: str) -> None:
        level = 0 if self.levels.get(name) else 1
        self.levels[name] = level
        if name.startswith("door") and not level:  # SAS 12, 16, 1A (sim/fuzz/oracle.py sas_expected)
            self.sas_did["closes"][name] = self.sas_did["closes"].get(name, 0) + 1
        self.rig.panel.set_pin(name, level)
        want = "door" if name.startswith("door") and level else "audit" if name == "key_audit" and level else None
        if name == "key_audit" and not level:
            return self._audit_key_back()
        # as _press: past the debounce, then two polls, so the main loop has taken the switch (its door
        # meter counted) before the next step reads the books; a screen already showing a tilt says
        # nothing of it (seed 2263153447: a cash box door counted during the next step's SAS flood)
        time.sleep(0.06)
        self.rig.wait_polls(2, 1.0)
        try:
            if want:
                self.rig.wait_screen(lambda s: s.get("state") in (want, "service", "ramerror", "handpay", "jackpot",
                                                                  "spin", "payout") or "TILT" in s.get("msg", ""), 1.0)
        except TimeoutError:
            pass

    # --- the console -------------------------------------------------------------------------------------
    @precondition(_playable)
    @rule(cmd=st.sampled_from(READ_COMMANDS))
    @logged
    def console_read(self, cmd: str) -> None:
        out = self.rig.command(cmd)
        # hardmeters json on a power-up that drives no meter coils (after a RAM error, until the next
        # one: firmware/console.py) says so in words, as checks.py _check_hard_meters reads it
        if cmd.endswith("json") and out[-1:] != ["no electromechanical meters on this board"]:
            json.loads(out[-1])

    @precondition(_playable)
    @rule(junk=st.one_of(st.binary(min_size=0, max_size=200),
                         st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=LINE_MAX - 2,
                                 max_size=LINE_MAX + 40)))
    @logged
    def console_garbage(self, junk) -> None:
        """Line noise, or a printable line at and past the console's limit: nothing runs that was not
        sent whole, and the console answers the next command."""
        rig = self.rig
        data = junk if isinstance(junk, bytes) else junk.encode()
        try:  # its own reply read to its prompt: under load it could arrive after the next command
            rig.console.send_raw(data.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n")
        except TimeoutError as e:
            raise Violation("console", f"no prompt after {data[:60]!r}: {e}") from None
        oracle.console_answers(data, rig.command("version"), config.VERSION)

    @precondition(lambda self: self._playable() and not self.levels.get("key_audit"))
    @rule(cmd=st.sampled_from(PRIVILEGED))
    @logged
    def console_privileged(self, cmd: str) -> None:
        oracle.privileged_refused(cmd, self.rig.command(cmd))

    @precondition(lambda self: self._playable() and self.levels.get("key_audit"))
    @rule(n=st.integers(1, 3))
    @logged
    def test_games(self, n: int) -> None:
        for _ in range(n):
            self.rig.command("testgame")

    @precondition(lambda self: self._playable() and self.levels.get("key_audit"))
    @rule(fee=st.one_of(st.integers(1, 20), st.sampled_from((10 ** 9, 10 ** 20, 10 ** 56 - 1))),
          credits=st.integers(1, 10 ** 12),
          games=st.integers(1, 12), pct=st.sampled_from((29, 30, 50, 100)), hours=st.integers(0, 10 ** 9),
          name=st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=24), end=st.booleans())
    @logged
    def tournament(self, fee: int, credits: int, games: int, pct: int, hours: int, name: str, end: bool) -> None:
        """Start (huge numbers, names up to and past the line limit) or end a tournament."""
        if self.dated is None:  # the rules of s. 125 name a date and a length: the newer syntax
            self.dated = any("DATE" in ln for ln in self.rig.command("help"))
        when = f" 2026-11-23 {hours} {name}".rstrip() if self.dated else ""
        line = "tournament end" if end else f"tournament start {fee} {credits} {games} {pct}{when}"
        before = self.rig.command("tournament")
        out = self.rig.command(line)
        oracle.long_line_ran_nothing(line, LINE_MAX, out, before, self.rig.command("tournament"))

    # --- faults of the board --------------------------------------------------------------------------------
    @precondition(_playable)
    @rule(kind=st.sampled_from(("cut", "cut", "cut", "flip", "games")),
          during=st.sampled_from(POWER_DURING), delay=st.floats(0.0, 0.7),
          hopper_too=st.booleans(), k=st.integers(0, 1 << 20), bit=st.integers(0, 7),
          games=st.sampled_from(GAME_SETS), tamper=st.booleans(), validator_too=st.booleans(),
          held=st.sampled_from(("front", "front", "keep")), transport=st.sampled_from(("cashbox", "cashbox", "front")))
    @logged
    def power(self, kind: str, during: str, delay: float, hopper_too: bool, k: int, bit: int,
              games: tuple[str, ...], tamper: bool, validator_too: bool = False, held: str = "front",
              transport: str = "cashbox") -> None:
        """A power cut at a random instant (the hopper's and the bill validator's supply too, or
        not; where a note held in escrow or on its way ends up), a bit flip while off, or a reboot
        with another game set."""
        if kind == "cut":
            self._power_cut(during, delay, hopper_too, validator_too, held, transport)
        elif kind == "flip":
            self._bit_flip(k, bit)
        else:
            self._reboot_games(games, tamper)

    def _power_cut(self, during: str, delay: float, hopper_too: bool, validator_too: bool = False,
                   held: str = "front", transport: str = "cashbox") -> None:
        """SIGKILL at a random instant of an action; the acceptor keeps its power, the hopper and
        the bill validator may not."""
        rig = self.rig
        dealt = rig.screen.get("reels") if oracle.hand_open(rig.screen) else None
        owed = None  # what the action leaves owed when the power goes is not known
        if during == "token":
            pos = self._token_position()
            if rig.peer.accepting(pos) and rig.peer.insert(pos):
                # credited before the cut or read from the buffer after it: at the basis then in force
                either = (self._token_credits(), TOKEN_CENTS // self.asked[1])
                self.truth.coins_low += min(either)
                self.truth.coins_high += max(either)
        elif during == "note":
            rig.bills.insert(3)  # a $20 note: the cut lands somewhere in its escrow exchange
        elif during in ("play", "cashout"):
            self._press(during)
            if during == "cashout":
                self.sas_did["cashouts"] = None  # its 66 is committed in the pass that takes it: the cut may win
        elif during == "door":
            rig.panel.set_pin("door_main", 1)
            self.levels["door_main"] = 1
        elif during == "key":
            self._press("key_reset")
            self.keyed = True  # the key may clear tilts before the cut
        time.sleep(delay)
        self._cut(hopper_too, validator_too, held, transport)
        self._boot()
        self._booted(owed)
        if during != "play":  # a press of play may have drawn it before the cut
            oracle.hand_kept(dealt, rig.screen)

    def _bit_flip(self, k: int, bit: int) -> None:
        """Power off at rest, flip one bit of live critical memory, power on: the firmware must notice."""
        self._settle()
        owed = bool(self._owed())
        self._cut()
        self.expect_ramerror = True
        pos = self.rig.flip_bit(k, bit)
        self._boot()
        oracle.bit_flip_noticed(pos, bit, self.rig.fw.lines, self.rig.screen)
        self._booted(owed)

    def _reboot_games(self, games: tuple[str, ...], tamper: bool) -> None:
        """A reboot with another game set, or with the first game's certificate tampered. Under a
        signed configuration the operator signs the new set (within the vlt's limits under vlt)."""
        self._settle()
        owed = bool(self._owed())
        self._cut()
        if self.asked[0] == "vlt":
            games = games if games in VLT_SETS else VLT_SETS[len(games) % len(VLT_SETS)]
        if (self.rig.state / "operator.json").exists():
            self._sign(self.asked[0], self.asked[1], tuple(games))
        self.rig.games = tuple(games)
        self.rig.certs = self.rig.tampered_certs(games[0], CERTS) if tamper else None
        self._boot()
        self._booted(owed)
        if tamper:
            oracle.tampered_not_played(games[0], self.rig.command("games"), self.rig.screen)

    @precondition(lambda self: ENTROPY and self._playable())
    @rule(at_boot=st.booleans(), stuck=st.booleans())
    @logged
    def entropy(self, at_boot: bool, stuck: bool) -> None:
        """The emulated entropy source stuck (or back): at power-up (a state file) or at run time (panel)."""
        rig = self.rig
        self.entropy_stuck |= stuck
        if at_boot:
            self._settle()
            owed = bool(self._owed())
            self._cut()
            (rig.state / "entropy").write_text("stuck\n" if stuck else "ok\n")
            self._boot()
            self._booted(owed)
            if stuck:
                oracle.stuck_entropy_tilts(rig.command("state"), rig.screen)
        else:
            rig.panel.tap.send_line("entropy " + ("stuck" if stuck else "ok"))
            rig.wait_polls(3)

    # --- what is owed ------------------------------------------------------------------------------------
    def _owed(self) -> list[str]:
        """What the cabinet owes, as the outside world sees it (firmware/ledger.py `owed` says the
        same from the books): credits, a lock, a coupon owed, a game under way, a note in escrow or
        of unknown fate, a tournament."""
        rig = self.rig
        s = rig.screen
        if s.get("state") == "ramerror":
            return ["a RAM error"]
        lines = rig.command("state")
        out = []
        if s.get("credits"):
            out.append("credits")
        if oracle.lock(lines):
            out.append("lock")
        if s.get("state") in ("spin", "payout", "hold") or oracle.hand_open(s) or \
                any(ln.startswith("last game: #") and ("committed" in ln or "turning" in ln or "waiting" in ln)
                    for ln in lines):
            out.append("a game or payout under way")
        if rig.bills.escrow is not None or rig.bills.transport is not None:
            out.append("a note in escrow")
        if self._vlt():
            recs = rig.console_json("coupons json")
            if recs and recs[-1]["st"] == "owed":
                out.append("a coupon owed")
            if rig.console_json("note json")["note"]:
                out.append("a note of unknown fate")
        if rig.command("tournament")[:1] != ["no tournament"]:
            out.append("a tournament")
        return out

    def _settle(self) -> None:
        """Let what the last step started finish: coins polled, reels stopped, payout ended."""
        rig = self.rig
        if not rig.alive():
            return
        try:
            rig.wait_screen(oracle.settled, 20.0)
        except TimeoutError as e:
            if rig.alive():
                raise Violation("stuck", str(e)) from None
        if self._vlt():  # a note in escrow is stacked or handed back, its events read
            deadline = time.monotonic() + 10
            while (rig.bills.escrow is not None or rig.bills.transport is not None) and \
                    time.monotonic() < deadline and rig.alive():
                rig.wait_bills(1, 1.0)
            rig.wait_bills(2)
        counter = rig.peer.counter if rig.peer else -1
        if counter != self.acceptor_counter:
            rig.wait_polls(2)  # its new events (or a fresh boot's buffer) are read and committed
            self.acceptor_counter = counter

    def found(self, v: Violation) -> None:
        """A campaign records the first violation of a sequence and ends it (hypothesis, which would
        play it again to confirm it, never sees it: timing differs from one run to the next); a test
        raises it."""
        for figure in v.figures:
            self.rec.add(figure)
        if not self.rec.campaign:
            raise v
        self.rec.found.append((v, list(self.rec.log)))
        self.rec.add("violations")
        self.failed = True
