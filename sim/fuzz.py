"""`make fuzz`: stateful testing of the real firmware process on the emulated board.

A rule-based state machine (hypothesis.stateful) drives the cabinet with random sequences of
tokens (valid, unknown, foreign, acceptor faults and frauds, event-counter jumps and replays), bets,
plays, cash-outs, hopper faults, doors, keys, console commands (valid, garbage, privileged without
the audit key, at their length limit), tournaments with huge numbers, power cuts at random
instants, bit flips in critical memory while the power is off, RNG failures, and reboots with
another game set or a tampered certificate. A third of the sequences run the cabinet as a
video-lottery terminal (`vlt`): Canadian notes, cash-out by redemption coupon, and printer faults
(paper out or jam mid-ticket, head open, a silent printer, paper low, the attendant's reprint, which a
VLT refuses).
After every step it checks invariants against what the outside world saw, not against the
firmware's own arithmetic (see `Machine.check`); under vlt the coupons on the printer's paper are
the truth for what left by coupon: credits in = credits played - won + cashed out (hopper, hand
pay, coupons on paper or owed) + left on the meter.

    python -m sim.fuzz --steps 20000 --seed 7      # campaign: progress bar, then a JSON summary
    python -m sim.fuzz --replay FILE               # play a (shrunk) failing sequence again

The summary's figures are all zero but the counts (steps, sequences, games_played, power_cuts).
Each failing sequence is shrunk (bounded time) and written to --out as JSON.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from firmware import config, states
from firmware.cabinet import HARD_METERS
from games.cardtable_games import FORMATS as CARD_TABLES
from games.table_check import FORMATS as TABLE_FORMATS
from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.fuzz_rig import Rig, parallel
from sim.replay import load_game as load
from tools.console import ConsoleClosed

ROOT = Path(__file__).resolve().parent.parent
# the table games (issue 26) are disabled by the firmware until the cabinet can play them: not offered here
MODELS = {json.loads(p.read_text())["id"]: p for p in sorted((ROOT / "games" / "models").glob("*.json"))
          if json.loads(p.read_text())["format"] not in TABLE_FORMATS + CARD_TABLES}
# the firmware offers a game by id (games/models/<id>.json): a model filed under another name cannot be
OFFERED = tuple(sorted(g for g, p in MODELS.items() if p.stem == g))
GAME_IDS = OFFERED
CERTS = ROOT / "games" / "certs"
# every shipped game alone, and multi-game sets (the first that passes its boot check is played)
GAME_SETS = tuple((g,) for g in GAME_IDS) + (
    ("sept-royal-87", "trefle-90", "aurore-88"),
    ("aurore-93", "sept-royal-91"),
    ("trefle-94", "sept-royal-84", "aurore-85"),
)
# a vlt cabinet's game sets: reel games within the vlt profile's bet and prize limits (the others
# are refused at boot with the rule named; `certify --jurisdiction vlt` says which)
VLT_SETS = (("sept-royal-87",), ("sept-royal-91",), ("sept-royal-84", "sept-royal-87"))
JURISDICTIONS = ("casino", "casino", "vlt")
PRINTER_KINDS = ("paper_out", "jam", "head_open", "silent", "low", "fix", "reprint")
DUPLICATE = "*** DUPLICATA / DUPLICATE ***"  # firmware/coupon.py: the mark of a reprint
# the peer's house token is ccTalk coin id "CA100T" (CCvvvI: Canada, 100 cents, issue T): $1
TOKEN_ID = "CA100T"
TOKEN_CREDITS = 100 // config.DENOM_CENTS
UNKNOWN_POSITION = 9  # a coin the acceptor does not recognise: it answers a reject event
# ccTalk Generic Specification, table of error codes for header 229 (event B with A = 0)
REJECT_CODES = (1, 2, 8, 25)
FAULT_CODES = (5, 6, 14, 15)
FRAUD_CODES = (17, 20, 40)
# states where a cash-out press is not carried out at once, read from the firmware's own state
# table (firmware/states.py): refused (a RAM error) or kept until the game, payout or lock ends
CASHOUT_WAITS = tuple(s for s in states.STATES if states.action(s, states.CASHOUT) in (None, "keep_cashout"))
# tilts that need the attendant: a power cycle must not clear them (the rng tilt clears itself once a
# fresh generator passes its start-up tests)
KEY_TILTS = ("acceptor", "fraud", "hopper")
# tilts a correct firmware never reaches in these sequences: its own books disagree
NEVER_TILTS = ("audit", "meter")
RESET_EXIT = 75  # board/emulated.py RESET_EXIT: the board asked for a reset
LINE_MAX = 80  # the console's line limit
MONEY = ("acceptor_in", "bill_in", "coin_in", "coin_out", "refunds", "cashout", "hopper_out", "cancelled", "jackpot",
         "tournament_fees", "tournament_prizes", "progressive_paid", "tournament_entries", "games_played")
PLAYER = ("token", "token", "token", "bet_one", "bet_max", "play", "play", "play", "play", "cashout", "key",
          "quick",  # quick: a keno quick pick on the player's screen (a reel game ignores the touch)
          "hold", "hold", "auto")  # video poker's hold key (card: the action's place % 5 + 1), auto-hold
READ_COMMANDS = ("help", "meters", "meters json", "state", "paytable fr", "paytable en", "games", "events",
                 "recall", "recall json", "hardmeters", "hardmeters json", "mem", "version", "tournament")
QUICK_SPOTS = 5  # offered by every shipped keno pay table
PRIVILEGED = ("testgame", "ramclear", "ramclear 0000", "tournament start 1 100 5 30", "tournament end")
ACCEPTOR_FAULTS = hasattr(CoinAcceptorPeer, "replay") and hasattr(CoinAcceptorPeer, "jump")
ACCEPTOR_KINDS = ("unknown", "foreign", "reject", "fault", "fraud", "lost") + (("replay", "jump") if ACCEPTOR_FAULTS else ())
ENTROPY = "entropy" in (ROOT / "board" / "emulated.py").read_text()

DEBUG = bool(os.environ.get("JETON_FUZZ_DEBUG"))  # one line per step on stderr
STATS = {"steps": 0, "sequences": 0, "games_played": 0, "power_cuts": 0, "violations": 0, "crash_loops": 0,
         "board_resets": 0}
PROGRESS: list = []  # the campaign's progress queue, in a worker process
LAST_LOG: list = []  # the steps of the sequence running now (the last one run, after a failure)
SHRUNK: list = []  # the violation of the shortest sequence shrink() found
CAMPAIGN = [False]  # a campaign worker: violations are recorded in FOUND, not raised
FOUND: list = []
RULES: dict = {}  # steps run per rule, for the campaign's coverage line
GAMES_CACHE: dict = {}


class Violation(AssertionError):
    def __init__(self, kind: str, text: str):
        super().__init__(f"{kind}: {text}")
        self.kind = kind


def game(game_id: str):
    if game_id not in GAMES_CACHE:
        GAMES_CACHE[game_id] = load(str(MODELS[game_id]))
    return GAMES_CACHE[game_id]


def logged(fn):
    """Record each step (rule name and arguments) so a failing sequence can be written and replayed."""
    @functools.wraps(fn)
    def step(self, **kw):
        if self.failed:  # the rest of a failed sequence runs unchecked (its steps keep the model's
            try:         # state, so hypothesis sees the same rules if it plays the sequence again)
                fn(self, **kw)
            except Exception:  # noqa: BLE001  nothing is judged any more
                pass
            return None
        LAST_LOG.append([fn.__name__, kw])
        RULES[fn.__name__] = RULES.get(fn.__name__, 0) + 1
        self.step_kind = fn.__name__
        try:
            return fn(self, **kw)
        except (OSError, TimeoutError, RuntimeError, ValueError, ConsoleClosed) as e:
            if self.rig is not None and not self.rig.alive():
                return None  # it died under the step: check() reports how
            return self.found(Violation("unresponsive", f"{fn.__name__}({kw}): {e!r}"))
        except Violation as v:
            return self.found(v)
    return step


class Truth:
    """What the outside world knows, counted from the peers, since the last RAM clear."""

    def __init__(self) -> None:
        self.tokens = 0  # tokens the acceptor validated (events the firmware can read)
        self.unprovable = 0  # coins whose events left the acceptor's buffer unread
        self.hopper_base = 0  # hopper coins out at the last RAM clear
        self.bill_base = 0  # cents of the notes stacked by the validator at the last RAM clear
        self.ticket_base = 0  # tickets the printer had printed at the last RAM clear
        self.old_coupons: set[str] = set()  # control numbers kept from before the last RAM clear (they print
        # after it when owed, and never repeat: firmware/coupon_store.py), not counted against these books
        self.meter_base: dict[str, int] = {}  # EM counts at the last RAM clear
        self.meters: dict | None = None  # the last meters read


class Machine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="jeton-fuzz-"))
        self.rig: Rig | None = None
        self.truth = Truth()
        self.levels: dict[str, int] = {}  # switches held (doors open, keys on): they survive a power cut
        self.step_kind = "boot"
        self.lines_seen = 0
        self.flipped: int | None = None
        self.games_before = 0
        self.dated: bool | None = None
        self.plays = 0
        self.hand_paid = 0  # locks the attendant's key cleared in this step
        self.tilts: set[str] = set()
        self.keyed = False  # the attendant's key turned during this power step
        self.acceptor_counter: int | None = None
        self.failed = False
        STATS["sequences"] += 1
        LAST_LOG.clear()

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
            status = self.rig.exit_status()
            if status == RESET_EXIT:
                STATS["board_resets"] += 1
                STATS["crash_loops"] += 1
                raise Violation("crash_loop", f"no boot, board reset (status 75): {e}") from None
            raise Violation("no_boot", str(e)) from None
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
        STATS["power_cuts"] += 1

    def teardown(self) -> None:
        try:
            if self.rig is not None:
                self.rig.shutdown()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # --- a player ------------------------------------------------------------------------------------
    def _playable(self) -> bool:
        # the model's state only, never the process's: hypothesis must see the same rules when it
        # plays a sequence again
        return self.rig is not None

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
                bet = max(rig.screen.get("bet") or 1, min(self._bets() or (1,)))
                self._insert(-(-bet // TOKEN_CREDITS))  # enough for the bet shown
            elif a == "key":
                self._key()
            elif a == "cashout":
                self._cashout(None)
            elif a == "quick":
                rig.panel.touch("quick", QUICK_SPOTS)
                rig.wait_polls(2, 1.0)
            else:
                self.games_before = rig.screen.get("games", 0)
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
        for ln in self.rig.command("state"):
            if ln.startswith("lock: "):  # 'lock: KIND AMOUNT credits ...'
                kind, amount = ln[6:].split()[:2]
                return kind, int(amount)
        return None

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
        tried = rig.hopper.dispenses != dispenses  # the hopper was asked (and ran dry: its tilt says so)
        if before and s.get("credits") == before and s.get("state") not in CASHOUT_WAITS and not self._lock() \
                and not tried and self._tilt_lines() <= tilts and not self._hand_open(s):
            raise Violation("stranded", f"cash-out of {before} credits did nothing in state {s.get('state')} "
                                        f"({s.get('msg')!r}): {rig.command('state')}")

    @staticmethod
    def _hand_open(s: dict) -> bool:
        """A dealt poker hand waits for its draw (under a door or a tilt too): a cash-out waits."""
        return bool((s.get("hand") or {}).get("open"))

    def _token_position(self) -> int:
        return next(p for p, ident in self.rig.peer.coins.items() if ident == TOKEN_ID)

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
    @rule(fault=st.sampled_from(("jam", "empty", "low", "refill")), k=st.integers(0, 5))
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
    @rule(name=st.sampled_from(("door_main", "door_logic", "door_cashbox", "key_audit")))
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
        out = rig.command("version")
        if not any(config.VERSION in ln for ln in out):
            raise Violation("console", f"after {data[:60]!r}... 'version' answered {out!r}")

    @precondition(lambda self: self._playable() and not self.levels.get("key_audit"))
    @rule(cmd=st.sampled_from(PRIVILEGED))
    @logged
    def console_privileged(self, cmd: str) -> None:
        out = self.rig.command(cmd)
        if not any("audit key" in ln or "locked" in ln for ln in out):
            raise Violation("console", f"{cmd!r} without the audit key answered {out!r}")

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
        after = self.rig.command("tournament")
        if len(line) > LINE_MAX and before != after:
            raise Violation("console", f"an over-long line ran: {line!r} -> {out!r}; tournament {before} -> {after}")

    # --- faults of the board --------------------------------------------------------------------------------
    @precondition(lambda self: self.rig is not None)
    @rule(kind=st.sampled_from(("cut", "cut", "cut", "flip", "games")),
          during=st.sampled_from(("idle", "token", "play", "cashout", "door", "key")), delay=st.floats(0.0, 0.7),
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
        dealt = rig.screen.get("reels") if self._hand_open(rig.screen) else None
        if during == "token":
            pos = next(p for p, ident in rig.peer.coins.items() if ident == TOKEN_ID)
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
        if dealt and during != "play":  # a press of play may have drawn it before the cut
            s = rig.screen
            if not self._hand_open(s) or s.get("reels") != dealt:
                raise Violation("hand", f"dealt {dealt} before the cut, shows {s.get('reels')} {s.get('hand')} after")

    def _bit_flip(self, k: int, bit: int) -> None:
        """Power off at rest, flip one bit of live critical memory, power on: the firmware must notice."""
        self._settle()
        self._cut()
        self.flipped = self.rig.flip_bit(k, bit)
        self._boot()
        noticed = any("critical memory:" in ln for ln in self.rig.fw.lines) or self.rig.screen.get("state") == "ramerror"
        if not noticed:
            raise Violation("bitflip", f"bit {bit} at {self.flipped} not detected: {self.rig.fw.lines[-6:]}")

    def _reboot_games(self, games: tuple[str, ...], tamper: bool) -> None:
        """A reboot with another game set, or with the first game's certificate tampered."""
        self._settle()
        self._cut()
        self.rig.games = tuple(games)
        self.rig.certs = self.rig.tampered_certs(games[0], CERTS) if tamper else None
        self._boot()
        if tamper:
            listed = " ".join(self.rig.command("games"))
            if self.rig.screen.get("state") != "ramerror" and games[0] in listed and "PLAYING" in listed.split(games[0])[1][:12]:
                raise Violation("certificate", f"{games[0]} plays with a tampered certificate: {listed}")

    @precondition(lambda self: ENTROPY and self.rig is not None)
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
            lines = rig.command("state")
            if stuck and not any(ln.startswith("tilt rng") for ln in lines) and rig.screen.get("state") != "ramerror":
                raise Violation("rng", f"booted on a stuck entropy source without the rng tilt: {lines}")
        else:
            rig.panel.tap.send_line("entropy " + ("stuck" if stuck else "ok"))
            rig.wait_polls(3)

    # --- invariants -----------------------------------------------------------------------------------
    def _settle(self) -> None:
        """Let what the last step started finish: coins polled, reels stopped, payout ended."""
        rig = self.rig
        if not rig.alive():
            return
        try:
            # a coupon owed to a printer at fault stays owed (state payout) until the attendant sees to it
            rig.wait_screen(lambda s: s.get("state") not in ("spin", "payout") or "TILT printer" in s.get("msg", ""),
                            20.0)
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

    def _check_process(self) -> None:
        rig = self.rig
        fw = rig.fw
        new = rig.restarts(self.lines_seen)
        self.lines_seen = len(fw.lines)
        status = rig.exit_status()
        if status is not None:  # not killed by us: it ended on its own
            if status == RESET_EXIT:
                STATS["board_resets"] += 1
                if len(new) >= 2:
                    STATS["crash_loops"] += 1
                raise Violation("board_reset", f"exit status 75 after {self.step_kind}: {fw.lines[-12:]}")
            raise Violation("died", f"exit status {status} after {self.step_kind}: {fw.lines[-12:]}")
        if len(new) >= 2:
            STATS["crash_loops"] += 1
            raise Violation("crash_loop", f"{len(new)} restarts in one step ({self.step_kind}): {new}")
        if new:
            raise Violation("restart", f"after {self.step_kind}: {new} {fw.lines[-12:]}")

    def found(self, v: Violation) -> None:
        """A campaign records the first violation of a sequence and ends it (hypothesis, which would
        play it again to confirm it, never sees it: timing differs from one run to the next); a test
        raises it."""
        if not CAMPAIGN[0]:
            raise v
        FOUND.append((v, list(LAST_LOG)))
        STATS["violations"] += 1
        self.failed = True

    @invariant()
    def check(self) -> None:
        if self.failed:
            return
        try:
            self._check()
        except Violation as v:
            self.found(v)
        except (OSError, TimeoutError, RuntimeError, ValueError, ConsoleClosed) as e:
            try:
                if self.rig is not None and not self.rig.alive():
                    self._check_process()  # it died while being checked: say how
                raise Violation("unresponsive", f"checking after {self.step_kind}: {e!r}")
            except Violation as v:
                self.found(v)

    def _check(self) -> None:
        STATS["steps"] += 1
        if PROGRESS:
            PROGRESS[0].put(1)
        rig = self.rig
        if rig is None:
            return
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
        self._check_tilts()
        self._check_money(m, s)
        try:
            self._check_screen(m, s)
        except Violation:  # the display may trail a commit by a loop pass: judge it once more
            rig.wait_polls(2, 1.0)
            s = dict(rig.screen)
            m = rig.console_json("meters json")
            self._check_money(m, s)
            self._check_screen(m, s)
        self._check_hard_meters(m)
        self.truth.meters = m
        if DEBUG:
            print(f"{self.step_kind:18} {LAST_LOG[-1][1] if LAST_LOG else ''} -> {s.get('state')} credits "
                  f"{s.get('credits')} bet {s.get('bet')} games {s.get('games')} {s.get('msg')!r}", file=sys.stderr)
        self.games_before = s.get("games", 0)
        self.flipped = None
        self.hand_paid = 0
        self.keyed = False

    def _tilt_lines(self) -> set[str]:
        return {ln for ln in self.rig.command("state") if ln.startswith("tilt ")}

    def _check_tilts(self) -> None:
        lines = self.rig.command("state")
        tilts = {ln[5:].split(":")[0] for ln in lines if ln.startswith("tilt ")}
        bad = tilts & set(NEVER_TILTS)
        if bad:
            raise Violation("tilt", f"{sorted(bad)} after {self.step_kind}: {lines}")
        if self.step_kind == "power" and not self.keyed:
            lost = (self.tilts & set(KEY_TILTS)) - tilts
            if lost:
                raise Violation("tilt_forgotten", f"{sorted(lost)} cleared by a power cycle, no key: {lines}")
        self.tilts = tilts

    def _check_money(self, m: dict, s: dict) -> None:
        t = self.truth
        ident = (m["acceptor_in"] + m["bill_in"] + m["coin_out"] + m["refunds"] - m["coin_in"] - m["cashout"]
                 - m["tournament_fees"])
        if m["credits"] != ident:
            raise Violation("identity", f"credits {m['credits']} != {ident} from the meters {m}")
        if m["cashout"] != m["hopper_out"] + m["cancelled"] + m["coupon_out"]:  # a vlt pays by coupon
            raise Violation("identity", f"cashout {m['cashout']} != hopper_out + cancelled + coupon_out {m}")
        low, high = t.tokens * TOKEN_CREDITS, (t.tokens + t.unprovable) * TOKEN_CREDITS
        if not low <= m["acceptor_in"] <= high:
            raise Violation("coins", f"acceptor_in {m['acceptor_in']}: the acceptor validated {t.tokens} tokens "
                                     f"(+{t.unprovable} unread): {low}..{high} after {self.step_kind}")
        notes = (self.rig.bills.stacked_cents - t.bill_base) // config.DENOM_CENTS
        if m["bill_in"] != notes:  # credited exactly once: the validator's stacker is the truth
            raise Violation("notes", f"bill_in {m['bill_in']} but the stacker took {notes} credits of notes "
                                     f"after {self.step_kind}")
        if self.rig.printer is not None:
            self._check_coupons(m)
        hopper = self.rig.hopper
        paid = hopper.coins_out - t.hopper_base
        if hopper.remaining == 0 and m["hopper_out"] != paid * TOKEN_CREDITS:
            raise Violation("hopper", f"hopper paid {paid} coins, hopper_out {m['hopper_out']} after {self.step_kind}")
        prev = t.meters
        if prev is None:
            return
        down = {k: (prev[k], m[k]) for k in prev if k != "credits" and m.get(k, 0) < prev[k]}
        if down:
            raise Violation("meters", f"meters went down after {self.step_kind}: {down}")
        moved = {k for k in MONEY if k != "acceptor_in" and m[k] != prev[k]}
        # credits change only through a coin, a settled game, a payout or a refund
        quiet = self.step_kind in ("console_read", "console_garbage", "console_privileged", "test_games", "switch",
                                   "hopper_fault", "acceptor", "tokens", "printer")
        if quiet and moved:
            raise Violation("credits", f"{self.step_kind} moved {sorted(moved)}: {prev} -> {m}")
        hand = m["cancelled"] + m["jackpot"] - prev["cancelled"] - prev["jackpot"]
        if self.step_kind != "power" and hand != self.hand_paid:
            raise Violation("hand_pay", f"the attendant cleared {self.hand_paid} by hand, meters moved {hand}")
        played = m["games_played"] - prev["games_played"]
        if self.step_kind == "player" and played > self.plays:
            raise Violation("game", f"{self.plays} presses of play played {played} games")
        STATS["games_played"] += max(0, m["games_played"] - prev["games_played"])

    def _paper(self) -> dict[str, int]:
        """Control number -> credits of every coupon on the printer's paper since the last RAM
        clear: a ticket that carries its number (finished, or stopped after it), but those kept from
        before the clear. The same number printed again (after a cut or a fault) is the same coupon;
        a DUPLICATE is a violation (no reprint under vlt)."""
        p = self.rig.printer
        with p.lock:
            tickets = list(p.tickets[self.truth.ticket_base:])
        paper: dict[str, int] = {}
        for t in tickets:
            if DUPLICATE in t.lines:  # a VLT never prints a coupon again (jurisdiction profile "reprint")
                raise Violation("coupons", f"a DUPLICATE of {t.number} printed under vlt after {self.step_kind}")
            if t.number is None or t.number in self.truth.old_coupons:
                continue
            k = [int(line.split()[-1]) for line in t.lines if line.startswith("Credits: ")]
            if t.number in paper and k and paper[t.number] != k[0]:
                raise Violation("coupons", f"control number {t.number} on paper for {paper[t.number]} and {k[0]} "
                                           f"credits after {self.step_kind}")
            paper[t.number] = k[0] if k else 0
        return paper

    def _check_coupons(self, m: dict) -> None:
        """Under vlt, credits in = credits played - won + cashed out + left on the meter, where what
        left by coupon is read from the paper (plus the one coupon owed: committed, not yet on it),
        never from the firmware's coupon_out; each number on paper is worth what its record says."""
        recs = self.rig.console_json("coupons json")  # before the paper: a coupon may finish meanwhile
        paper = self._paper()
        owed = recs[-1] if recs and recs[-1]["st"] == "owed" and recs[-1]["n"] not in self.truth.old_coupons else None
        coupons = sum(paper.values()) + (owed["k"] if owed and owed["n"] not in paper else 0)
        money_in = m["acceptor_in"] + m["bill_in"]
        out = (m["coin_in"] - m["coin_out"] - m["refunds"] + m["tournament_fees"] + m["hopper_out"]
               + m["cancelled"] + coupons + m["credits"])
        if money_in != out:
            raise Violation("coupons", f"credits in {money_in} != played - won + cashed out + on the meter {out} with "
                                       f"{coupons} credits of coupons on paper or owed ({len(paper)} numbers; "
                                       f"coupon_out {m['coupon_out']}) after {self.step_kind}")
        for r in recs:
            if r["n"] in paper and paper[r["n"]] != r["k"]:
                raise Violation("coupons", f"coupon {r['s']} committed for {r['k']} credits, on paper for "
                                           f"{paper[r['n']]} after {self.step_kind}")

    def _bets(self) -> tuple[int, ...]:
        return tuple(b for g in self.rig.games for b in game(g).bets)

    def _check_screen(self, m: dict, s: dict) -> None:
        if s.get("test") or s.get("state") in ("audit", "service"):
            return
        if s.get("credits") != m["credits"]:
            raise Violation("display", f"shows {s.get('credits')} credits, committed {m['credits']}")
        if s.get("games") != m["games_played"]:
            raise Violation("display", f"shows game {s.get('games')}, committed {m['games_played']}")
        recall = self.rig.console_json("recall json")["games"]
        if not recall:
            return
        last = recall[-1]
        if last["n"] != m["games_played"] and not self._hand_open(s) and not self._voided(last["n"], m["games_played"]):
            raise Violation("recall", f"last recall #{last['n']} but games_played {m['games_played']}")
        card = s.get("reels")
        if isinstance(card, dict) and not card.get("drawn"):
            return  # keno: a card being filled in on the screen, not a game shown
        if self._hand_open(s):
            return  # video poker: a dealt hand, counted in games_played, recalled once drawn
        if last.get("id") in MODELS and s.get("reels") is not None:
            replay = game(last["id"]).evaluate(last["bet"], last["draws"])
            if s.get("reels") != replay.window:
                raise Violation("display", f"shows {s.get('reels')}, recall #{last['n']} replays {replay.window}")

    def _voided(self, n: int, played: int) -> bool:
        """Games voided and refunded (s. 95: e.g. a dealt poker hand whose game a reboot no longer
        offers) count in games_played but leave no recall record: n (the last record's) plus the
        voids in the event log makes games_played (at most, once the log has recycled a chunk)."""
        events = self.rig.console_json("events json").get("events") or []
        voids = sum(1 for e in events if e[2] == "void")
        whole = bool(events) and events[0][0] == 1  # the log still holds its first event
        return n + voids == played if whole else n + voids <= played

    def _check_hard_meters(self, m: dict) -> None:
        """Judged only when the firmware says no stroke is on its way."""
        rig = self.rig
        if rig.console_json("hardmeters json")["busy"]:
            return
        base = self.truth.meter_base
        for coil, names in HARD_METERS.items():
            want = sum(m[n] for n in names) + base.get(coil, 0)
            got = rig.monitor.wait_for(coil, want, 2.0)  # the last stroke's off line may be on the wire
            if got != want:
                raise Violation("hard_meters", f"{coil}: counted {got}, soft {want} after {self.step_kind}")

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


# --- running ----------------------------------------------------------------------------------------
def machine_settings(examples: int, steps: int, shrink: bool = False) -> settings:
    return settings(max_examples=examples, stateful_step_count=steps, deadline=None, database=None,
                    verbosity=Verbosity.quiet, report_multiple_bugs=False,
                    phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,),
                    suppress_health_check=list(HealthCheck))


def run_machine(seed: int, examples: int, steps: int, shrink: bool = False) -> None:
    def factory() -> Machine:
        return Machine()
    factory._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]
    run_state_machine_as_test(factory, settings=machine_settings(examples, steps, shrink))


def replay(log: list) -> Violation | None:
    """Play a recorded sequence again, checking the invariants after every step (the campaign's
    figures are left as they were)."""
    saved, campaign = dict(STATS), CAMPAIGN[0]
    CAMPAIGN[0] = False
    m = Machine()
    try:
        for name, kw in log:
            kw = {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}
            getattr(m, name)(**kw)
            m.check()
    except Violation as e:
        return e
    finally:
        m.teardown()
        STATS.update(saved)
        CAMPAIGN[0] = campaign
    return None


def shrink(log: list, kind: str, budget_s: float) -> list:
    """Drop chunks of steps while the same kind of violation still happens (bounded in time)."""
    deadline = time.monotonic() + budget_s
    best = list(log)
    SHRUNK[:] = []
    chunk = max(1, (len(best) - 1) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 1  # the first step is the power-on
        progressed = False
        while i < len(best) and time.monotonic() < deadline:
            cand = best[:i] + best[i + chunk:]
            v = replay(cand)
            if v is not None and v.kind == kind:
                best = cand
                SHRUNK[:] = [v]
                progressed = True
            else:
                i += chunk
        if not progressed:
            chunk //= 2
    return best


def decode(log: list) -> list:
    out = []
    for name, kw in log:
        if kw.get("bytes"):
            kw = dict(kw, junk=bytes.fromhex(kw["junk"]))
        out.append([name, {k: v for k, v in kw.items() if k != "bytes"}])
    return out


def write_failure(out: Path, seed: int, v: Violation, log: list) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    steps = []
    for name, kw in log:
        kw = dict(kw)
        if isinstance(kw.get("junk"), bytes):
            kw = dict(kw, junk=kw["junk"].hex(), bytes=True)
        steps.append([name, kw])
    path = out / f"fuzz-{seed}-{v.kind}.json"
    n = 1
    while path.exists():  # two failures of one kind in one run
        n += 1
        path = out / f"fuzz-{seed}-{v.kind}-{n}.json"
    path.write_text(json.dumps({"seed": seed, "violation": str(v)[:4000], "kind": v.kind, "steps": steps}, indent=1))
    return path


def worker(args: tuple) -> dict:
    """One session: sequences with seeds drawn from `seed` until `steps` steps are done."""
    wid, seed, steps, seq_steps, out, shrink_s, queue = args
    rnd = random.Random(seed)
    failures = []
    if queue is not None:
        PROGRESS[:] = [queue]
    per_sequence = float(seq_steps)  # steps a sequence takes on average, learnt as the runs go
    while STATS["steps"] < steps:
        s = rnd.getrandbits(32)
        left = steps - STATS["steps"]
        before = dict(STATS)
        try:
            # runs of about the steps left (no stopping one midway: hypothesis would see a changed
            # sequence); each starts with hypothesis's simplest example, then random ones
            CAMPAIGN[0] = True
            run_machine(s, max(2, round(left / per_sequence)), seq_steps)
        except Exception as e:  # noqa: BLE001  the harness itself: reported, counted, the campaign goes on
            STATS["violations"] += 1
            failures.append({"violation": "harness: " + "".join(traceback.format_exception_only(e))[:600],
                             "file": str(write_failure(Path(out), s, Violation("harness", repr(e)), list(LAST_LOG)))})
        finally:
            CAMPAIGN[0] = False
        ran = STATS["sequences"] - before["sequences"]
        if ran:
            per_sequence = max(1.0, (STATS["steps"] - before["steps"]) / ran)
        found, FOUND[:] = list(FOUND), []
        for v, log in found:  # shrunk outside hypothesis, in bounded time
            small = shrink(log, v.kind, shrink_s) if shrink_s > 0 else log
            v = SHRUNK[0] if SHRUNK else v  # what the shrunk sequence reports
            failures.append({"violation": str(v)[:600], "file": str(write_failure(Path(out), s, v, small)),
                             "steps": len(small)})
    return {"stats": dict(STATS), "failures": failures, "rules": dict(RULES)}


def campaign(steps: int, seed: int, jobs: int, seq_steps: int, out: str, shrink_s: float,
             progress: bool = True) -> tuple[dict, list]:
    per = [steps // jobs + (1 if i < steps % jobs else 0) for i in range(jobs)]
    work = [(i, seed * 1000 + i, n, seq_steps, out, shrink_s) for i, n in enumerate(per) if n]
    results = parallel(worker, work, steps, "step", progress)
    summary = {k: sum(r["stats"][k] for r in results) for k in STATS}
    failures = [f for r in results for f in r["failures"]]
    rules: dict = {}
    for r in results:
        for k, n in r["rules"].items():
            rules[k] = rules.get(k, 0) + n
    print("steps per rule: " + ", ".join(f"{k} {n}" for k, n in sorted(rules.items())), file=sys.stderr)
    return summary, failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.fuzz", description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=4, help="sessions in parallel (they mostly wait: 4 share 2 cores)")
    ap.add_argument("--sequence", type=int, default=40, help="steps per sequence at most")
    ap.add_argument("--out", default="build/fuzz", help="where failing sequences are written")
    ap.add_argument("--shrink", type=float, default=120.0, help="seconds spent shrinking each failure")
    ap.add_argument("--replay", metavar="FILE", help="play a recorded sequence again")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    if args.replay:
        try:
            rec = json.loads(Path(args.replay).read_text())
            steps = decode(rec["steps"])
        except (OSError, ValueError, KeyError, TypeError) as e:  # no file, no JSON, not a recorded sequence
            print(f"fuzz: {args.replay}: not a recorded sequence ({type(e).__name__}: {e})", file=sys.stderr)
            return 2
        v = replay(steps)
        print(json.dumps({"steps": len(rec["steps"]), "violation": str(v) if v else None}))
        return 1 if v else 0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    print(f"fuzz: {args.steps} steps in {args.jobs} sessions, seed {seed}", file=sys.stderr)
    summary, failures = campaign(args.steps, seed, args.jobs, args.sequence, args.out, args.shrink,
                                 not args.no_progress)
    for f in failures:
        print(f"  {f['violation']}\n    -> {f['file']}", file=sys.stderr)
    summary["seed"] = seed
    print(json.dumps(summary))
    return 1 if summary["violations"] or summary["crash_loops"] or summary["board_resets"] else 0


if __name__ == "__main__":
    sys.exit(main())
