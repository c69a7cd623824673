"""The fuzz campaign's rules: a rule-based state machine (hypothesis.stateful) whose rules are the
inputs of the outside world on one emulated cabinet (sim/fuzz_rig.py `Rig`): a player's presses,
coins, notes, peers' faults, doors and keys, console commands, power cuts, bit flips, reboots.

Each rule acts, records in the model (`Truth`, sim/fuzz/oracle.py) what the peers did, and may
call the oracle for what that one step must have done; after every step `check` lets the step
finish, observes the cabinet and holds it to the oracle's invariants. Preconditions read the
model's state only, never the process's: hypothesis must see the same rules when it plays a
sequence again.
"""
from __future__ import annotations

import functools
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from firmware import config
from sim.fuzz import oracle
from sim.fuzz.games import CERTS, GAME_SETS, MODELS, VLT_SETS, bets, game
from sim.fuzz.inputs import ACCEPTOR_KINDS, ENTROPY, FAULT_CODES, FRAUD_CODES, HOPPER_FAULTS, JURISDICTIONS, \
    LINE_MAX, PLAYER, POWER_DURING, PRINTER_KINDS, PRIVILEGED, QUICK_SPOTS, READ_COMMANDS, REJECT_CODES, SWITCHES, \
    TOKEN_CREDITS, TOKEN_ID, UNKNOWN_POSITION
from sim.fuzz.oracle import Truth, Violation
from sim.fuzz.record import Recorder
from sim.fuzz_rig import Rig
from tools.console import ConsoleClosed

# what a step that lost the cabinet under it raises (a dead link, a console gone, a timeout)
UNRESPONSIVE = (OSError, TimeoutError, RuntimeError, ValueError, ConsoleClosed)


def logged(fn):
    """Record each step (rule name and arguments) so a failing sequence can be written and replayed."""
    @functools.wraps(fn)
    def step(self, **kw):
        if self.skipped or self.rec.spent():
            return None
        if self.failed:  # the rest of a failed sequence runs unchecked (its steps keep the model's
            try:         # state, so hypothesis sees the same rules if it plays the sequence again)
                fn(self, **kw)
            except Exception:  # noqa: nothing is judged any more
                pass
            return None
        self.rec.step(fn.__name__, kw)  # a step: counted here, checked by check() after it
        self.step_kind = fn.__name__
        try:
            return fn(self, **kw)
        except UNRESPONSIVE as e:
            if self.rig is not None and not self.rig.alive():
                return None  # it died under the step: check() reports how
            return self.found(Violation("unresponsive", f"{fn.__name__}({kw}): {e!r}"))
        except Violation as v:
            return self.found(v)
    return step


class Machine(RuleBasedStateMachine):
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
        self.flipped: int | None = None
        self.dated: bool | None = None
        self.plays = 0
        self.hand_paid = 0  # locks the attendant's key cleared in this step
        self.tilts: set[str] = set()
        self.keyed = False  # the attendant's key turned during this power step
        self.acceptor_counter: int | None = None
        self.failed = False
        if not self.skipped:
            self.rec.start_sequence()

    # --- power ---------------------------------------------------------------------------------------
    @initialize(games=st.sampled_from(GAME_SETS), juris=st.sampled_from(JURISDICTIONS),
                vlt_games=st.sampled_from(VLT_SETS))
    @logged
    def power_on(self, games: tuple[str, ...], juris: str = "casino", vlt_games: tuple[str, ...] | None = None) -> None:
        if juris == "vlt" and vlt_games:
            games = vlt_games
        self.rig = Rig(self.tmp / "state", tuple(games), jurisdiction=juris if juris != "casino" else None)
        self._boot()

    def _boot(self) -> None:
        assert self.rig is not None
        try:
            self.rig.boot()
        except (RuntimeError, TimeoutError, OSError) as e:
            raise oracle.no_boot(self.rig.exit_status(), str(e)) from None
        self.lines_seen = 0
        self.acceptor_counter = None  # a fresh boot reads the acceptor's buffer
        for name, level in self.levels.items():  # a door left open stays open through the cut
            if level:
                self.rig.panel.set_pin(name, 1)
        if self.levels:
            time.sleep(0.1)  # past the 30-50 ms debounce of the switches

    def _cut(self, hopper_too: bool = False) -> None:
        assert self.rig is not None
        self.rig.cut(hopper_too)
        self.rec.add("power_cuts")

    def teardown(self) -> None:
        try:
            if self.rig is not None:
                self.rig.shutdown()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # --- a player ------------------------------------------------------------------------------------
    def _playable(self) -> bool:
        # powered on; or not run at all (skipped, or the budget spent), where a rule must still be
        # there for hypothesis to draw, though it does nothing
        return self.rig is not None or self.skipped or self.rec.spent()

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
        for i, a in enumerate(actions):
            if a in ("hold", "auto"):
                rig.panel.touch(a, i % 5 + 1 if a == "hold" else 0)  # taken only while a hand waits
                rig.wait_polls(2, 1.0)
            elif a == "token":
                bet = max(rig.screen.get("bet") or 1, min(bets(rig.games) or (1,)))
                self._insert(-(-bet // TOKEN_CREDITS))  # enough for the bet shown
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

    @precondition(lambda self: self.rig is not None and self.rig.jurisdiction == "vlt")
    @rule(types=st.lists(st.sampled_from((1, 2, 3, 4, 5)), min_size=1, max_size=4))
    @logged
    def notes(self, types: list[int]) -> None:
        """Canadian notes into a vlt cabinet's bill validator ($5 ... $100), each waited out."""
        for t in types:
            if self.rig.bills.insert(t):
                self._settle()

    @precondition(lambda self: self.rig is not None and self.rig.printer is not None)
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
                    break
                time.sleep(0.02)

    def _lock(self) -> tuple[str, int] | None:
        return oracle.lock(self.rig.command("state"))

    def _cashout(self, hopper_cut: float | None) -> None:
        """Credits belong to the player: a cash-out pays them (hopper, hand pay) in every state but a
        RAM error, or says why not."""
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

    def _insert(self, n: int) -> None:
        rig = self.rig
        pos = self._token_position()
        for _ in range(n):
            if not rig.peer.accepting(pos):
                rig.wait_polls(3, 1.0)  # acceptance comes back a poll after a game or a payout ends
                if not rig.peer.accepting(pos):
                    break
            if rig.peer.insert(pos):
                self.truth.tokens += 1
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
                self.truth.unprovable += k
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
    @precondition(_playable)
    @rule(name=st.sampled_from(SWITCHES))
    @logged
    def switch(self, name: str) -> None:
        level = 0 if self.levels.get(name) else 1
        self.levels[name] = level
        self.rig.panel.set_pin(name, level)
        want = "door" if name.startswith("door") and level else "audit" if name == "key_audit" and level else None
        try:
            if want:
                self.rig.wait_screen(lambda s: s.get("state") in (want, "service", "ramerror", "handpay", "jackpot",
                                                                  "spin", "payout") or "TILT" in s.get("msg", ""), 1.0)
            else:
                self.rig.wait_polls(2)
        except TimeoutError:
            pass

    # --- the console -------------------------------------------------------------------------------------
    @precondition(_playable)
    @rule(cmd=st.sampled_from(READ_COMMANDS))
    @logged
    def console_read(self, cmd: str) -> None:
        out = self.rig.command(cmd)
        if cmd.endswith("json"):
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
          games=st.sampled_from(GAME_SETS), tamper=st.booleans())
    @logged
    def power(self, kind: str, during: str, delay: float, hopper_too: bool, k: int, bit: int,
              games: tuple[str, ...], tamper: bool) -> None:
        """A power cut at a random instant, a bit flip while off, or a reboot with another game set."""
        if kind == "cut":
            self._power_cut(during, delay, hopper_too)
        elif kind == "flip":
            self._bit_flip(k, bit)
        else:
            self._reboot_games(games, tamper)

    def _power_cut(self, during: str, delay: float, hopper_too: bool) -> None:
        """SIGKILL at a random instant of an action; the acceptor keeps its power, the hopper may not."""
        rig = self.rig
        dealt = rig.screen.get("reels") if oracle.hand_open(rig.screen) else None
        if during == "token":
            pos = self._token_position()
            if rig.peer.accepting(pos) and rig.peer.insert(pos):
                self.truth.tokens += 1
        elif during == "note":
            rig.bills.insert(3)  # a $20 note: the cut lands somewhere in its escrow exchange
        elif during in ("play", "cashout"):
            self._press(during)
        elif during == "door":
            rig.panel.set_pin("door_main", 1)
            self.levels["door_main"] = 1
        elif during == "key":
            self._press("key_reset")
            self.keyed = True  # the key may clear tilts before the cut
        time.sleep(delay)
        self._cut(hopper_too)
        self._boot()
        if during != "play":  # a press of play may have drawn it before the cut
            oracle.hand_kept(dealt, rig.screen)

    def _bit_flip(self, k: int, bit: int) -> None:
        """Power off at rest, flip one bit of live critical memory, power on: the firmware must notice."""
        self._settle()
        self._cut()
        self.flipped = self.rig.flip_bit(k, bit)
        self._boot()
        oracle.bit_flip_noticed(self.flipped, bit, self.rig.fw.lines, self.rig.screen)

    def _reboot_games(self, games: tuple[str, ...], tamper: bool) -> None:
        """A reboot with another game set, or with the first game's certificate tampered."""
        self._settle()
        self._cut()
        self.rig.games = tuple(games)
        self.rig.certs = self.rig.tampered_certs(games[0], CERTS) if tamper else None
        self._boot()
        if tamper:
            oracle.tampered_not_played(games[0], self.rig.command("games"), self.rig.screen)

    @precondition(lambda self: ENTROPY and self._playable())
    @rule(at_boot=st.booleans(), stuck=st.booleans())
    @logged
    def entropy(self, at_boot: bool, stuck: bool) -> None:
        """The emulated entropy source stuck (or back): at power-up (a state file) or at run time (panel)."""
        rig = self.rig
        if at_boot:
            self._settle()
            self._cut()
            (rig.state / "entropy").write_text("stuck\n" if stuck else "ok\n")
            self._boot()
            if stuck:
                oracle.stuck_entropy_tilts(rig.command("state"), rig.screen)
        else:
            rig.panel.tap.send_line("entropy " + ("stuck" if stuck else "ok"))
            rig.wait_polls(3)

    # --- after every step ------------------------------------------------------------------------------
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
        if rig.jurisdiction == "vlt":  # a note in escrow is stacked or handed back, its events read
            deadline = time.monotonic() + 10
            while rig.bills.escrow is not None and time.monotonic() < deadline and rig.alive():
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
                raise Violation("unresponsive", f"checking after {self.step_kind}: {e!r}")
            except Violation as v:
                self.found(v)

    def _check_process(self) -> None:
        rig = self.rig
        new = rig.restarts(self.lines_seen)
        self.lines_seen = len(rig.fw.lines)
        oracle.process(new, rig.exit_status(), self.step_kind, rig.fw.lines[-12:])

    def _check(self) -> None:
        rig = self.rig
        self._check_process()
        self._settle()
        self._check_process()
        s = dict(rig.screen)
        if s.get("state") == "ramerror":
            if self.flipped is None:
                raise Violation("ramerror", f"RAM error after {self.step_kind}: {rig.fw.lines[-8:]}")
            self._ram_clear()
            self.flipped = None
            return
        m = rig.console_json("meters json")
        self.tilts = oracle.tilts(rig.command("state"), self.tilts, self.step_kind, self.keyed)
        played = self._check_money(m)
        try:
            self._check_screen(m, s)
        except Violation:  # the display may trail a commit by a loop pass: judge it once more
            rig.wait_polls(2, 1.0)
            s = dict(rig.screen)
            m = rig.console_json("meters json")
            played = self._check_money(m)
            self._check_screen(m, s)
        self._check_hard_meters(m)
        self.truth.meters = m
        self.rec.add("games_played", played)
        if self.rec.debug:
            log = self.rec.log
            print(f"{self.step_kind:18} {log[-1][1] if log else ''} -> {s.get('state')} credits "
                  f"{s.get('credits')} bet {s.get('bet')} games {s.get('games')} {s.get('msg')!r}", file=sys.stderr)
        self.flipped = None
        self.hand_paid = 0
        self.keyed = False

    def _tilt_lines(self) -> set[str]:
        return {ln for ln in self.rig.command("state") if ln.startswith("tilt ")}

    def _check_money(self, m: dict) -> int:
        rig = self.rig
        played = oracle.money(m, self.truth, TOKEN_CREDITS, rig.bills.stacked_cents, config.DENOM_CENTS,
                              rig.hopper.coins_out, rig.hopper.remaining, self.step_kind, self.hand_paid, self.plays)
        if rig.printer is not None:
            recs = rig.console_json("coupons json")  # before the paper: a coupon may finish meanwhile
            oracle.coupons(m, recs, self._paper(), self.truth.old_coupons, self.step_kind)
        return played

    def _paper(self) -> dict[str, int]:
        p = self.rig.printer
        with p.lock:
            tickets = [(t.number, list(t.lines)) for t in p.tickets[self.truth.ticket_base:]]
        return oracle.paper(tickets, self.truth.old_coupons, self.step_kind)

    def _check_screen(self, m: dict, s: dict) -> None:
        if s.get("test") or s.get("state") in ("audit", "service"):
            return
        rig = self.rig

        def replay(last: dict) -> list | None:
            return game(last["id"]).evaluate(last["bet"], last["draws"]).window if last.get("id") in MODELS else None

        def events() -> list:
            return rig.console_json("events json").get("events") or []

        oracle.screen(m, s, rig.console_json("recall json")["games"], replay, events)

    def _check_hard_meters(self, m: dict) -> None:
        """Judged only when the firmware says no stroke is on its way."""
        rig = self.rig
        if rig.console_json("hardmeters json")["busy"]:
            return
        want = oracle.hard_want(m, self.truth.meter_base)
        # the last stroke's off line may be on the wire
        got = {coil: rig.monitor.wait_for(coil, n, 2.0) for coil, n in want.items()}
        oracle.hard_meters(want, got, self.step_kind)

    def _ram_clear(self) -> None:
        """The technician's RAM clear after a detected corruption: the model starts again from zero."""
        rig = self.rig
        kept = {r["n"] for r in rig.console_json("coupons json")} if rig.printer is not None else set()
        rig.panel.set_pin("key_audit", 1)
        time.sleep(0.1)  # past the key's debounce
        out = rig.command("ramclear")
        rig.panel.set_pin("key_audit", self.levels.get("key_audit", 0))
        try:
            rig.wait_screen(lambda s: s.get("state") != "ramerror", 5.0)
        except TimeoutError:
            raise Violation("ramclear", f"still a RAM error after 'ramclear': {out}") from None
        self.tilts = set()
        self.truth = Truth()  # coins still in the acceptor's buffer must not be credited again
        self.truth.hopper_base = rig.hopper.coins_out
        self.truth.bill_base = rig.bills.stacked_cents
        if rig.printer is not None:
            with rig.printer.lock:
                self.truth.ticket_base = len(rig.printer.tickets)
            self.truth.old_coupons = kept
        self.truth.meter_base = dict(rig.monitor.counts)
