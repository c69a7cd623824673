"""Heap: the smallest fixed heap (-X heapsize) in which the real firmware carries a whole session —
boot, tokens for 10 games, 10 games, every read-only console command, cash-out — for every shipped
game offered in turn, and for each way of loading the code: frozen in the Jeton firmware image (as a
board has it in flash, with a board's 32-bit words), the same image built with 64-bit words
(frozen64: what the word size alone costs), .mpy (tools.image, the stock 64-bit wheel), and from
source compiled on the device.

    python -m tools.bench.bench_heap [--games ID,...] [--codes frozen,frozen64,mpy,py] [--sas frozen] [--jobs 4]
                                     [--no-census] [--long N --heap 112K]

For each (code, game): the smallest heap that boots, the smallest that carries the session
(bisection in STEP_K steps between LO_K and the code form's TOP_K), the heap in use after boot and after the 10
games (console `mem`, after a collection). A heap that fails with a MemoryError, a restart or a
board reset "did not fit"; a run that stalls without any of these is a "timeout" (a busy host), is
tried again, and is never counted as not fitting. --long plays N games at one heap and reports any
restart and the heap in use every 100 games, and its trend (long_run).

With the SAS line (--sas CODES, the frozen image by default): each session again with the line
open and polled by a floor's system from boot to cash-out (FloorSystem: a general poll every
FLOOR_TICK_S, the meter long polls FLOOR_LONG in rounds), its smallest heap searched upward from the
one without; each game flagged over BUDGET_NEED_K (the requirement, issue 25) and over BUDGET_GOAL_K
(the goal). Then the heap in use after boot by subsystem, for each frozen game (heap_census.py;
--no-census leaves it out).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from central.sas_reads import SNAPSHOT_CODES
from firmware.startup import CARDS_PLAYED
from games.cardtable_games import FORMATS as CARD_TABLES
from games.table_check import FORMATS as TABLE_FORMATS
from games.table_check import build
from sim.harness import BOARD_HEAP, READ_COMMANDS, ROOT, EmulatedCabinet
from sim.replay import load_game
from sim.sas_host import SasHost
from tools.progress import bar

BOARD_K = int(BOARD_HEAP.rstrip("K"))  # the emulated board's heap: the ratio column's reference
BUDGET_K = 256
# the largest heap tried per code form: the stock wheel loads bytecode into the heap
TOP_K = {"frozen": BUDGET_K, "frozen64": BUDGET_K, "mpy": 512, "py": 512}
LO_K = 64
STEP_K = 8
GAMES_PER_SESSION = 10
TOKEN_CREDITS = 4  # firmware/config.py: a $1 token, 25-cent credits
WARM_GAMES = 100  # a long run's heap is traced every 100 games
LEAK_BYTES = 256  # a long run's growth (half-means, long_run) above this is a leak
JOBS = 4  # cabinets measured at once (--jobs): each spends most of its session idle in SPIN_MS
TRIES = 3  # a timeout is tried again this often before the figure is given up as "timeout"
FIT, NOFIT, TIMEOUT = "fits", "did not fit", "timeout"
OOM_SIGNS = ("MemoryError", "out of memory", "restarting the cabinet", "board reset")


def table_wager(game: str, root: Path = ROOT) -> tuple[int, int] | None:
    """A table game's session wager: (its number on the layout, the credits one touch places), the
    first key the game takes alone on an empty table at its lowest level; None for another game."""
    raw = json.loads((root / "games" / "models" / f"{game}.json").read_text())
    if raw.get("format") not in TABLE_FORMATS:
        return None
    engine = build(raw)
    for i, key in enumerate(engine.layout()):
        for b in engine.bets:
            try:
                engine.check_stake({key: b}, None)
            except ValueError:
                continue
            return i, b
    raise ValueError(f"{game}: no wager on the layout is played alone")


def card_stake(game: str, root: Path = ROOT) -> dict[str, int] | None:
    """A card-poker table game's session stake (firmware/play_cards.py), each wager at the first bet
    level: the first of the model's stake wagers played alone, else the first two played together
    (3-5-7's 3-card and 5-card wagers, s. 67.45), staked with the console's `table put`; None for
    another game."""
    path = root / "games" / "models" / f"{game}.json"
    if json.loads(path.read_text()).get("format") not in CARD_TABLES:
        return None
    engine = load_game(str(path))
    ws = engine.m.stakes
    for stake in [(w,) for w in ws] + [(a, b) for i, a in enumerate(ws) for b in ws[i + 1:]]:
        try:
            engine.check_stake({w: engine.bets[0] for w in stake})
        except ValueError:
            continue
        return {w: engine.bets[0] for w in stake}
    raise ValueError(f"{game}: no stake of one or two wagers is played")


def shipped_games(root: Path = ROOT, tables: bool = False) -> list[str]:
    """Every game a cabinet can be offered: a model games/models/<id>.json with its certificate; the
    table games of issue 26 when `tables`: roulette, craps, sic bo, the wheel, baccarat (their session
    places a wager on the layout first: table_wager) and the card-poker tables the cabinet plays
    (firmware/startup.py CARDS_PLAYED; their session stakes card_stake and plays each decision at
    the built-in strategy); not blackjack nor the card tables the firmware disables."""
    out = []
    for model in sorted((root / "games" / "models").glob("*.json")):
        raw = json.loads(model.read_text())
        gid = raw.get("id")
        fmt = raw.get("format")
        if fmt == "jeton-blackjack/1" or (fmt in CARD_TABLES and fmt not in CARDS_PLAYED) or \
                (fmt in TABLE_FORMATS + CARDS_PLAYED and not tables):
            continue
        if gid and model.stem == gid and (root / "games" / "certs" / f"{gid}.json").is_file():
            out.append(gid)
    return out


class ConsoleOutOfMemory(RuntimeError):
    """A console command of the session answered "out of memory": the heap is too small, not a stall."""


def verdict(e: Exception, firmware_oom: bool) -> str:
    """What a session that raised e says of its heap: NOFIT when the firmware ran out of memory (its
    log, or a command's answer), else TIMEOUT (a stall, a closed console: never taken for a size)."""
    return NOFIT if firmware_oom or isinstance(e, ConsoleOutOfMemory) else TIMEOUT


def card_round(cab: EmulatedCabinet, timeout: float) -> dict:
    """One card-table round: PLAY, then `table auto` (the built-in strategy's decision) while the hand
    waits in hold; over when the award is concluded."""
    assert cab.panel is not None and cab.console is not None
    games = cab.panel.wait_for(lambda s: s.get("state") not in ("spin", "payout"), timeout).get("games", 0)
    cab.panel.press("play")
    s = cab.panel.wait_for(lambda s: s.get("games", 0) > games and s.get("state") != "spin", timeout)
    deadline = time.monotonic() + timeout
    while s.get("state") == "hold" and time.monotonic() < deadline:
        out = cab.console.command("table auto")
        if any(line.startswith("error") for line in out):
            oom = any("out of memory" in line for line in out)
            raise (ConsoleOutOfMemory if oom else RuntimeError)(f"table auto: {out}")
        s = cab.panel.wait_for(lambda s: s.get("state") != "spin", timeout)
    return s


# The floor's system on the SAS line (--sas): a general poll every FLOOR_TICK_S, and every
# FLOOR_LONG_EVERY ticks the next of the meter long polls a system reads (SAS 6.02 s. 7: 1C, 1A, the
# single meters 10-12, 19, 1F, and 2F for the eight meters the site controller reads,
# central/sas_reads.py SNAPSHOT_CODES), round after round for the whole session
FLOOR_TICK_S = 0.2
FLOOR_LONG_EVERY = 5
METERS_2F = b"\x00\x00" + bytes(code for _, code in SNAPSHOT_CODES)  # game 0 (the machine), then the codes
# (command, the reply's length; None: a type M poll whose reply says its own length)
FLOOR_LONG = ((0x1C, 36), (0x1A, 8), (0x10, 8), (0x11, 8), (0x12, 8), (0x19, 24), (0x1F, 24), (0x2F, None))
GENERAL = "general"
BUDGET_NEED_K = 112  # the requirement: every shipped game's session with its SAS line (issue 25)
BUDGET_GOAL_K = 96  # the goal: a 110 KB ESP32 keeps its margin (docs/build.md "Heap")


def floor_poll(tick: int) -> str | int:
    """What the floor's system sends at its `tick`-th tick: GENERAL, or every FLOOR_LONG_EVERY-th
    tick the command of the next long poll of FLOOR_LONG, round after round."""
    if tick % FLOOR_LONG_EVERY:
        return GENERAL
    return FLOOR_LONG[tick // FLOOR_LONG_EVERY % len(FLOOR_LONG)][0]


class FloorSystem:
    """A thread that polls the cabinet's SAS line for the whole session through the project's host
    (sim/sas_host.py), counting the polls answered and the exceptions read; a poll that times out or
    comes back garbled is counted, never raised (the firmware's log decides a session's fate)."""

    def __init__(self, path: str) -> None:
        self.host = SasHost(path, timeout=1.0)
        self.answered: dict[str | int, int] = {}
        self.failed: dict[str | int, int] = {}
        self.exceptions = 0
        self.ticks = 0
        self._stop = threading.Event()
        self._round = threading.Event()  # set once every long poll of a round has been answered
        self.host.sync()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _poll(self, what: str | int) -> None:
        h = self.host
        if what == GENERAL:
            code = h.general_poll()
            if code is None:
                raise TimeoutError("no answer")
            self.exceptions += code != 0
        elif what == 0x2F:
            h.variable(0x2F, METERS_2F, multi=True)
        else:
            h.checked(what, dict(FLOOR_LONG)[what])

    def _run(self) -> None:
        while not self._stop.wait(FLOOR_TICK_S):
            what = floor_poll(self.ticks)
            self.ticks += 1
            try:
                self._poll(what)
            except (TimeoutError, ValueError, OSError):
                self.failed[what] = self.failed.get(what, 0) + 1
                continue
            self.answered[what] = self.answered.get(what, 0) + 1
            if all(cmd in self.answered for cmd, _ in FLOOR_LONG):
                self._round.set()

    def wait_round(self, timeout: float = 60.0) -> bool:
        """Until each long poll was answered once (the link's handler modules then in the heap)."""
        return self._round.wait(timeout)

    def stop(self) -> dict:
        self._stop.set()
        self._thread.join(5)
        self.host.close()
        return {"answered": dict(self.answered), "failed": dict(self.failed), "exceptions": self.exceptions}


def unanswered(summary: dict) -> list[str]:
    """The polls of a session's FloorSystem.stop() never answered: a session "with SAS" that had none
    of them did not carry the link."""
    return [what if what == GENERAL else f"{what:02X}" for what in (GENERAL,) + tuple(c for c, _ in FLOOR_LONG)
            if not summary["answered"].get(what)]


def _is_keno(game: str) -> bool:
    return json.loads((ROOT / "games" / "models" / f"{game}.json").read_text()).get("format") == "jeton-keno/1"


def _oom(cab: EmulatedCabinet) -> bool:
    return any(sign in line for line in cab.firmware.lines for sign in OOM_SIGNS)


def _heap_used(cab: EmulatedCabinet) -> int:
    assert cab.console is not None
    m = re.match(r"heap: (\d+) used", cab.console.command("mem")[0])
    return int(m.group(1)) if m else -1


def run(game: str, heap_k: int, code: str, games: int = GAMES_PER_SESSION, boot_only: bool = False,
        sas: bool = False, juris: str = "casino") -> dict:
    """One session; {"result": FIT|NOFIT|TIMEOUT, "boot_used", "used", "why"}. juris: the cabinet's
    jurisdiction profile (vlt: it also runs its bill validator and pays by coupon; its session pays
    by notes too and waits for the cash-out's coupon). sas: with the SAS line
    wired and a FloorSystem polling it from boot to cash-out ("boot_used" then once each of its long
    polls was answered: the link's handler modules are imported at their first poll); a session
    in which one of its polls was never answered did not carry the link: a timeout, unless the
    firmware ran out of memory."""
    out: dict = {"result": FIT}
    vlt = juris == "vlt"
    floor: FloorSystem | None = None
    with tempfile.TemporaryDirectory(prefix="jeton-heap-") as d:
        cab = EmulatedCabinet(d, heap=f"{heap_k}K", code=code, sas=sas,
                              extra_args=["--games", game] + (["--jurisdiction", "vlt"] if vlt else []))
        try:
            cab.boot()
            if cab.firmware.ready.get("game") != game:
                off = [line for line in cab.firmware.lines if "DISABLED" in line]
                short = any("memory" in line for line in off)  # the boot check ran out of heap
                return {"result": NOFIT if short or _oom(cab) else "error", "why": (off or ["game not offered"])[0]}
            if boot_only:
                return out
            if cab.sas_path is not None:
                floor = FloorSystem(cab.sas_path)
                if not floor.wait_round():
                    missed = unanswered({"answered": dict(floor.answered)})
                    return {"result": NOFIT if _oom(cab) else TIMEOUT, "why": f"SAS: no answer to {' '.join(missed)}"}
            out["boot_used"] = _heap_used(cab)
            assert cab.panel is not None and cab.console is not None
            if _is_keno(game):
                cab.quick_pick(10)  # keno: a card of 10 spots, on the player's screen, before the first game
            wager = table_wager(game)
            cards = card_stake(game)
            if cards is not None:  # staked once: the layout keeps it from round to round
                for w in sorted(cards):
                    put = cab.console.command(f"table put {w} {cards[w]}")
                m = re.match(r"stake .* takes (\d+)$", put[-1])
                if m is None:  # refused: a tilt says why; the link's alone is a busy host's late polls
                    tilts = [ln for ln in cab.console.command("state") if ln.startswith("tilt ")]
                    late = bool(tilts) and all(ln.startswith("tilt link:") for ln in tilts)
                    return {"result": TIMEOUT if late else "error", "why": f"table put: {put} {tilts}"}
                bet = int(m.group(1))  # the most its round can put at risk: the credits PLAY needs
            else:
                bet = wager[1] if wager is not None else cab.panel.screen.get("bet", 1)
            for n in range(games):
                t = cab.panel.screen.get("table") or {}
                if wager is not None and not t.get("stake") and not t.get("table"):
                    # a table game: one wager touched on the layout, again when the table no longer
                    # takes it (craps: a line wager once its point is decided; while it stands, the
                    # dice roll for it alone)
                    cab.panel.touch("wager", wager[0])
                    cab.panel.wait_for(lambda s: (s.get("table") or {}).get("takes") == wager[1])
                # tokens for the next 10 games at a time: a long run stays under the credit limit,
                # above which the acceptor is inhibited (firmware/config.py CREDIT_LIMIT)
                if cab.panel.screen.get("credits", 0) < bet and vlt:
                    cab.insert_bill(3)  # a $20 note (80 credits) through the escrow
                    cab.insert_token()
                elif cab.panel.screen.get("credits", 0) < bet:
                    for _ in range(-(-bet * GAMES_PER_SESSION // TOKEN_CREDITS)):
                        cab.insert_token()
                s = card_round(cab, 30) if cards else cab.play(timeout=30)
                if s.get("state") in ("jackpot", "handpay"):  # a win the attendant pays by hand
                    cab.attendant_key()
                    cab.panel.wait_for(lambda s: s.get("state") not in ("jackpot", "handpay"), 30)
                if n == GAMES_PER_SESSION - 1:
                    out["used"] = _heap_used(cab)
                if (n + 1) % WARM_GAMES == 0 and n + 1 < games:  # a long run's trace
                    out.setdefault("trace", {})[n + 1] = _heap_used(cab)
            out["used_end"] = _heap_used(cab)
            for c in READ_COMMANDS:
                errors = [line for line in cab.console.command(c) if line.startswith("error")]
                if errors:  # out of memory, or a fault of the command's own (not a size: said as it is)
                    return {"result": NOFIT if any("memory" in e for e in errors) else "error",
                            "why": f"console {c!r}: {errors[0]}"}
            cab.cash_out()
            if cab.printer is not None:  # a coupon cabinet: the coupon issued
                deadline = time.monotonic() + 30
                while not cab.printer.issued() and time.monotonic() < deadline:
                    time.sleep(0.05)
                if not cab.printer.issued():
                    return {"result": NOFIT if _oom(cab) else TIMEOUT, "why": "no coupon issued"}
            if _oom(cab) or not cab.firmware.alive():
                return {"result": NOFIT, "why": "restart or reset during the session"}
            if floor is not None:
                out["sas"] = floor.stop()
                floor = None
                missed = unanswered(out["sas"])
                if missed:  # a link that stopped answering: the firmware's log says why, else a stall
                    return {"result": NOFIT if _oom(cab) else TIMEOUT, "why": f"SAS: no answer to {' '.join(missed)}"}
            return out
        except Exception as e:  # noqa: BLE001  whatever broke (a stall, a closed console), the firmware's log decides
            # the firmware's own words decide: a memory failure is "did not fit", anything else a stall
            return {"result": verdict(e, _oom(cab)), "why": str(e).splitlines()[0]}
        finally:
            if floor is not None:
                floor.stop()
            cab.shutdown()
            cab.close_sas()


def settled(game: str, heap_k: int, code: str, boot_only: bool = False, sas: bool = False,
            juris: str = "casino") -> dict:
    """run(), with timeouts tried again: a busy host is not a heap that does not fit."""
    for _ in range(TRIES):
        r = run(game, heap_k, code, boot_only=boot_only, sas=sas, juris=juris)
        if r["result"] != TIMEOUT:
            return r
    return r


def smallest(game: str, code: str, boot_only: bool = False, top_k: int = BUDGET_K,
             sas: bool = False, juris: str = "casino") -> tuple[int | None, dict]:
    """Smallest multiple of STEP_K in (LO_K, top_k] that fits, with the run that fit there;
    (None, the failing run) when even top_k does not."""
    best = settled(game, top_k, code, boot_only, sas, juris)
    if best["result"] != FIT:
        return None, best
    lo, hi = LO_K, top_k
    while hi - lo > STEP_K:
        mid = (lo + hi) // 2 // STEP_K * STEP_K
        r = settled(game, mid, code, boot_only, sas, juris)
        if r["result"] == FIT:
            hi, best = mid, r
        elif r["result"] == NOFIT:
            lo = mid
        else:
            return None, r  # cannot tell: reported as such, never as a size
    return hi, best


def upward(game: str, code: str, start_k: int, top_k: int, boot_only: bool = False,
           sas: bool = False, juris: str = "casino") -> tuple[int | None, dict]:
    """Smallest multiple of STEP_K in [start_k, top_k] that fits, tried upward from start_k: with
    the SAS line, from the heap the same session needed without it (start_k - STEP_K did not
    carry even that one; the link only adds to it)."""
    r: dict = {"result": NOFIT, "why": f"nothing tried from {start_k}K to {top_k}K"}
    for k in range(start_k, top_k + 1, STEP_K):
        r = settled(game, k, code, boot_only, sas, juris)
        if r["result"] == FIT:
            return k, r
        if r["result"] != NOFIT:
            return None, r  # cannot tell: reported as such, never as a size
    return None, r


def measure(game: str, code: str, top: int, sas: bool = False, juris: str = "casino",
            sas_only: bool = False) -> dict:
    """One (code, game) row: the smallest heap that boots and the smallest that carries the session;
    with sas, the same again with the SAS line open and polled (the "sas_" fields). sas_only: the
    session with its line alone, each figure bisected as without it (the fields without SAS None): a
    VLT does not play without its central system's link (firmware/jurisdiction.py link_required)."""
    if sas_only:
        sboot_k, _ = smallest(game, code, boot_only=True, top_k=top, sas=True, juris=juris)
        sk, sr = smallest(game, code, top_k=top, sas=True, juris=juris)
        return {"code": code, "game": game, "top_k": top, "boot_k": None, "session_k": None, "boot_used": None,
                "used": None, "note": "", "sas_boot_k": sboot_k, "sas_session_k": sk,
                "sas_boot_used": sr.get("boot_used"), "sas_used": sr.get("used"),
                "sas_note": "" if sk else f"{sr['result']}: {sr.get('why', '')}"}
    boot_k, _ = smallest(game, code, boot_only=True, top_k=top, juris=juris)
    k, r = smallest(game, code, top_k=top, juris=juris)
    row = {"code": code, "game": game, "top_k": top, "boot_k": boot_k, "session_k": k, "boot_used": r.get("boot_used"),
           "used": r.get("used"), "note": "" if k else f"{r['result']}: {r.get('why', '')}"}
    if sas:
        sboot_k = upward(game, code, boot_k, top, boot_only=True, sas=True, juris=juris)[0] if boot_k else None
        # a session that does not fit the largest heap tried without its link does not with it
        sk, sr = upward(game, code, k, top, sas=True, juris=juris) if k else \
            (None, {"result": r["result"], "why": "as without SAS"})
        row.update({"sas_boot_k": sboot_k, "sas_session_k": sk, "sas_boot_used": sr.get("boot_used"),
                    "sas_used": sr.get("used"), "sas_note": "" if sk else f"{sr['result']}: {sr.get('why', '')}"})
    return row


def flag(row: dict) -> str:
    """Against the house's budgets, the session with SAS where it was measured (else without):
    "OVER 112K" past the requirement (also a session that did not fit even the largest heap tried,
    when that is past it), "over 96K goal" past the goal, "?" when no figure came out (a timeout,
    an error: never taken for a size). The budgets are a board's, the frozen 32-bit image's: the
    other code forms are not flagged."""
    if row["code"] != "frozen":
        return ""
    sas = "sas_session_k" in row
    k = row["sas_session_k"] if sas else row["session_k"]
    if k is None:
        note = row["sas_note"] if sas else row["note"]
        return "OVER %dK" % BUDGET_NEED_K if note.startswith(NOFIT) and row["top_k"] > BUDGET_NEED_K else "?"
    return "OVER %dK" % BUDGET_NEED_K if k > BUDGET_NEED_K else "over %dK goal" % BUDGET_GOAL_K if k > BUDGET_GOAL_K else ""


def _k(v: int | None) -> str:
    return "-" if v is None else f"{v}K"


HEADER = (f"{'code':<8} {'game':<22} {'boots in':>8} {'session in':>10} {'of ' + BOARD_HEAP:>7} {'used@boot':>9} "
          f"{'used@10':>8} | {'SAS boots':>9} {'session':>7} {'used@boot':>9} {'used@10':>8}  flag  note")


def row_line(row: dict) -> str:
    """One row of the table: without SAS, then with it ("-" where not measured), its flag and notes."""
    k = row["session_k"]
    sas = "sas_session_k" in row
    notes = [n for n in (row["note"], "with SAS: " + row["sas_note"] if sas and row["sas_note"] else "") if n]
    return (f"{row['code']:<8} {row['game']:<22} {_k(row['boot_k']):>8} {_k(k):>10} "
            f"{(f'{k / BOARD_K:.2f}' if k else '-'):>7} {row['boot_used'] or '-':>9} {row['used'] or '-':>8} | "
            f"{_k(row.get('sas_boot_k')) if sas else '-':>9} {_k(row.get('sas_session_k')) if sas else '-':>7} "
            f"{row.get('sas_boot_used') or '-':>9} {row.get('sas_used') or '-':>8}  {flag(row):<5} "
            f"{'; '.join(notes)}").rstrip()


def table(games: list[str], codes: list[str], top_k: int | None = None, jobs: int = JOBS,
          sas_codes: tuple[str, ...] = (), juris: str = "casino", sas_only: bool = False) -> list[dict]:
    """Every (code, game) row, JOBS cabinets at a time: a session mostly waits on its reels (SPIN_MS),
    so the host has room for several; the rows print in order as they are known. The code forms in
    sas_codes are measured with the SAS line too (alone with sas_only: measure()), each cabinet under
    the jurisdiction profile juris."""
    print(HEADER, flush=True)
    pairs = [(game, code, top_k or TOP_K.get(code, BUDGET_K), code in sas_codes, juris, sas_only and code in sas_codes)
             for code in codes for game in games]
    rows = []
    b = bar(total=len(pairs), desc="bench_heap", unit="game")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for row in pool.map(lambda p: measure(*p), pairs):  # in order; the pool runs ahead
            rows.append(row)
            print(row_line(row), flush=True)
            b.update(1)
    b.close()
    with_sas = [r for r in rows if "sas_session_k" in r]
    if with_sas:
        over = [r["game"] for r in with_sas if flag(r).startswith("OVER")]
        goal = [r["game"] for r in with_sas if flag(r).startswith("over")]
        unknown = [r["game"] for r in with_sas if flag(r) == "?"]
        print(f"{'' if juris == 'casino' else juris + ' '}with SAS: "
              f"{len(with_sas) - len(over) - len(goal) - len(unknown)} of {len(with_sas)} sessions in "
              f"{BUDGET_GOAL_K}K; over the {BUDGET_NEED_K}K requirement: {', '.join(over) or 'none'}; over the "
              f"{BUDGET_GOAL_K}K goal only: {', '.join(goal) or 'none'}" +
              (f"; no figure: {', '.join(unknown)}" if unknown else ""), flush=True)
    return rows


def census_table(rows: list[dict], jobs: int = JOBS, juris: str = "casino") -> dict[str, dict]:
    """The heap in use after boot by subsystem (tools/bench/heap_census.py) of each game of the
    frozen rows, with its SAS line polled, under the jurisdiction profile juris."""
    from tools.bench import heap_census

    def one(row: dict) -> dict:
        for _ in range(TRIES):  # a stall on a busy host is tried again, as in settled()
            try:
                return heap_census.census(row["game"], juris=juris)
            except (TimeoutError, RuntimeError, OSError) as e:
                lines = str(e).splitlines()
                why = " ".join(lines[:1] + [t for t in lines if "memory" in t][-1:])
        return {"why": why}

    print(f"\nheap in use after boot by subsystem (bytes, its code and objects; frozen, the SAS line polled"
          f"{'' if juris == 'casino' else ', ' + juris}: tools/bench/heap_census.py)", flush=True)
    done: dict[str, dict] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for row, got in zip(rows, pool.map(one, rows)):
            if "why" in got:
                print(f"{row['game']:<22} no census: {got['why']}", flush=True)
            else:
                done[row["game"]] = got
    print("\n".join(heap_census.table(done)), flush=True)
    return done


def long_run(game: str, heap_k: int, code: str, games: int, juris: str = "casino") -> dict:
    """N games at one heap: any restart, and the heap in use (after a collection) every 100 games.
    The heap in use wanders by a few 16-byte blocks from game to game (the last game's recall,
    event texts of varying length), so "growth" is a trend, not one reading against another: the
    mean of the trace's second half minus the mean of its first half, half of a steady rise. A leak
    of one 16-byte block every 30 games (512 bytes over 1000 games) or faster shows above LEAK_BYTES."""
    for _ in range(TRIES):  # a stall on a busy host is tried again, as in settled()
        r = run(game, heap_k, code, games=games, juris=juris)
        if r["result"] != TIMEOUT:
            break
    trace = [r["trace"][k] for k in sorted(r.get("trace", {}))] + ([r["used_end"]] if "used_end" in r else [])
    half = len(trace) // 2
    r["growth"] = (sum(trace[-half:]) // half - sum(trace[:half]) // half) if half else None
    print(f"{code} {game} {games} games in {heap_k}K: {r['result']}, heap in use after game "
          f"{GAMES_PER_SESSION}: {r.get('used')}, every {WARM_GAMES}: {' '.join(map(str, trace)) or '-'} "
          f"(growth {r['growth']}) {r.get('why', '')}", flush=True)
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench.bench_heap", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every shipped game)")
    ap.add_argument("--codes", default="frozen,frozen64,mpy,py")
    ap.add_argument("--long", type=int, default=0, help="play this many games at --heap instead")
    ap.add_argument("--heap", default="112K")
    ap.add_argument("--jobs", type=int, default=JOBS, help="cabinets measured at once (default %(default)s)")
    ap.add_argument("--max", type=int, default=0, help="largest heap tried, in K (default per code form, TOP_K)")
    ap.add_argument("--sas", default="frozen", metavar="CODES",
                    help="code forms also measured with the SAS line open and polled the whole session "
                         "(default %(default)s; '' none)")
    ap.add_argument("--no-census", action="store_true",
                    help="without the table of the heap in use after boot by subsystem (tools/bench/heap_census.py)")
    ap.add_argument("--jurisdiction", choices=("casino", "vlt"), default="casino",
                    help="vlt: the cabinet runs as a video-lottery terminal and the session pays by notes too")
    args = ap.parse_args([] if argv is None else argv)
    games = [g for g in args.games.split(",") if g] or shipped_games(tables=True)
    codes = [c for c in args.codes.split(",") if c]
    if args.long:
        bad = 0
        for code in codes:
            for game in games:
                r = long_run(game, int(args.heap.rstrip("Kk")), code, args.long, args.jurisdiction)
                bad += r["result"] != FIT or r["growth"] is None or r["growth"] > LEAK_BYTES
        return 1 if bad else 0
    sas = tuple(c for c in args.sas.split(",") if c)
    rows = table(games, codes, args.max or None, args.jobs, sas, args.jurisdiction)
    if "frozen" in sas and "frozen" in codes and not args.no_census:
        census_table([r for r in rows if r["code"] == "frozen"], args.jobs, args.jurisdiction)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
