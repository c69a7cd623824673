"""`make run`: the firmware booted under the MicroPython unix port on the emulated board, with a
terminal cabinet panel. Keys: t insert token, b bet one, m bet max (plays), space/p play,
c cash out, k attendant key (pays a hand pay, clears a tilt), a audit key on/off (the first
console account is made with it: 'setup ID'), l French/English, q power off; under --jurisdiction vlt, n inserts a
$20 note (the bill validator's escrow, then the stacker). The technician console is at socket://127.0.0.1:7770 (`make console`).
Keno (the player's touch screen): type a number then n to mark or unmark it (17n), a count then x
for a quick pick of that many spots (8x; x alone: as many as the card holds, else 5), z clears.
Video poker: space/p deals, then 1-5 toggle the hold under each card, h auto-holds (the built-in
strategy), space/p draws.

Without a terminal (stdin a pipe), it reads one command per line: token, bet, max, play, cashout,
key, audit, quit, note; keno: spot N, quick N, clear; video poker: hold N, auto (play deals and draws);
a table game: wager N (the layout's key number N: its next bet level, then off), clear;
after each it prints the display frame once the command has shown its effect (a game's, once its
reels stop: its own win).
"""
from __future__ import annotations

import argparse
import json
import select
import sys
import termios
import time
import tty
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from rich.console import Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from board.state_lock import BUSY_EXIT
from sim.harness import DEFAULT_PORTS, EmulatedCabinet
from sim.say import line_wins, money, sentence, win_message
from sim.screen import ScreenServer, model_page  # the display's stored pages
from sim.screen import model as rules_page

SCREEN_PORT = 7780  # the player's screen in a browser (sim/screen.py)

KEYS = {"t": "token", "b": "bet", "m": "max", " ": "play", "p": "play", "c": "cashout", "k": "key", "a": "audit",
        "q": "quit", "n": "note", "l": "lang"}


def act(cab: EmulatedCabinet, what: str) -> str:
    assert cab.panel and cab.acceptor
    if what == "token":
        deadline = time.monotonic() + 2  # right after power-up the firmware is still enabling it
        while not cab.acceptor.accepting(cab.TOKEN_POSITION) and time.monotonic() < deadline:
            time.sleep(0.05)
        return "token inserted" if cab.acceptor.insert(cab.TOKEN_POSITION) else "token rejected (acceptor inhibited)"
    if what == "note":
        if cab.bills is None or not cab.bills.accepting(3):
            return "note refused (the validator is inhibited: a vlt cabinet taking money only)"
        return "$20 note in escrow" if cab.bills.insert(3) else "note refused"
    if what == "key":
        cab.attendant_key()
        return "attendant key turned"
    if what == "audit":
        on = not cab.audit_on
        cab.audit_on = on
        cab.panel.set_pin("key_audit", int(on))
        return "audit key " + ("on" if on else "off")
    word, _, n = what.partition(" ")
    touch = ("spot", "quick", "clear", "hold", "auto", "wager")
    if word in touch and (n.isdigit() or word in ("clear", "auto")):  # the touch screen
        cab.panel.touch(word, int(n or 0))
        return f"touched {what}"
    buttons = {"bet": "bet_one", "max": "bet_max", "play": "play", "cashout": "cashout"}
    if what in buttons:
        cab.panel.press(buttons[what])
        return f"pressed {buttons[what]}"
    return f"unknown command {what!r}"


# a card's suit as the screen draws it (sim/screen/cards.js)
SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
LABELS = {"fr": ("CRÉDITS", "MISE", "GAIN", "partie", "PROGRESSIF", "TOURNOI", "GARDÉE"),
          "en": ("CREDITS", "BET", "WIN", "game", "PROGRESSIVE", "TOURNAMENT", "HELD")}


def symbol(code: str, names: dict, lang: str, poker: bool) -> str:
    """What a reel cell or a card shows: the model's name for the symbol in the player's language
    (never its code), or a card's rank and suit sign ('10\u2666', a star for the joker)."""
    if poker:
        if code == "JK":
            return "\u2605 Joker"
        return ("10" if code[0] == "T" else code[0]) + SUITS.get(code[1:], "?")
    n = names.get(code)
    return n.get(lang, n.get("fr", "")) if isinstance(n, dict) else ""


def credits(n: int, cents: int, lang: str) -> str:
    return f"{n} ({money(n * cents, lang)})" if cents else str(n)


def render(cab: EmulatedCabinet, note: str, lang: str = "fr") -> Group:
    assert cab.panel
    s = cab.panel.screen
    name = s.get("game", {})
    labels = LABELS[lang]
    spin = s.get("state") == "spin"
    reels = Table.grid(padding=(0, 2))
    if isinstance(s.get("reels"), dict):
        reels = keno_card(s["reels"])
    else:
        names = model_page(s["id"])["symbols"] if s.get("id") and s.get("reels") and not s.get("hand") else {}
        for row in s.get("reels") or [["?", "?", "?"]]:
            cells = ["…" if spin else symbol(c, names, lang, bool(s.get("hand"))) for c in row]  # s. 94: shown when they stop
            reels.add_row(*[Text(f" {c:^16} ", style="bold black on white") for c in cells])
        if s.get("hand"):  # video poker: the hold under each card while the hand waits
            hand = s["hand"]
            reels.add_row(*[Text(f" {labels[6] if h and hand.get('open') else '':^16} ", style="bold yellow")
                            for h in hand["held"]])
            if hand.get("open"):
                reels.add_row(*[Text(f"{i + 1:^18}", style="dim") for i in range(5)])
    cents = int(s.get("cents") or 0)
    status = Table.grid(padding=(0, 3))
    status.add_row(
        Text(f"{labels[0]} {credits(s.get('credits', 0), cents, lang)}", style="bold green"),
        Text(f"{labels[1]} {credits(s.get('bet', 0), cents, lang)}", style="bold"),
        Text(f"{labels[2]} {credits(s.get('win', 0), cents, lang)}", style="bold yellow"),
    )
    lamps = " ".join(
        f"[{'bold red' if v else 'dim'}]●[/] {k.removeprefix('lamp_')}" for k, v in sorted(cab.panel.lamps.items())
    )
    jackpot = (Text(f"{labels[4]} {credits(s['jackpot'], cents, lang)}", style="bold magenta") if s.get("jackpot")
               else Text(""))
    wins = [Text(w, style="yellow") for w in line_wins(s, lang)] if not spin else []
    body = Group(jackpot, reels, *wins, Text(""), status, Text.from_markup(lamps), *message(s, lang))
    title = f"{name.get(lang, name.get('fr', '?'))} — {labels[3]} {s.get('games', 0)}"
    help_line = Text("t jeton/token · b mise/bet · m mise max · espace jouer/play · c encaisser/cash out · "
                     "k clé préposé/attendant key · l français/English · q quit", style="dim")
    if isinstance(s.get("reels"), dict):
        help_line.append(" · keno: 17n marquer/mark · 8x choix rapide/quick pick · z effacer/clear")
    if s.get("hand"):
        help_line.append(" · poker: 1-5 garder/hold · h garde auto/auto-hold · espace tirer/draw")
    log = Text("\n".join(cab.firmware.lines[-4:]), style="dim cyan")
    parts = [Panel(body, title=title, subtitle=s.get("state", ""))]
    if s.get("tournament"):
        t = s["tournament"]
        parts.append(Text(labels[5] + " " + ", ".join(f"{k} {v}" for k, v in t.items()), style="bold cyan"))
    if s.get("rules"):  # s. 89: the rules page, before play, in the player's language
        parts.append(Text("\n".join(rules_page(s["rules"]).describe(lang)), style="dim"))
    return Group(*parts, help_line, Text(note), log)


def message(s: dict, lang: str = "fr") -> list[Text]:
    """The player's message in the player's language (the browser screen's texts), or the win's;
    under a tilt or a lock, the technician's line with its reasons too."""
    say = s.get("say")
    if not say:
        if s.get("win") and s.get("state") != "spin":
            words, big = win_message(s, lang)
            return [Text(words, style="bold yellow" if big else "")]
        return [Text(s.get("msg") or "", style="bold red")]
    lines = [Text(sentence(say, lang, s), style="bold red")]
    if str(say[0]) in ("tilt", "lock", "ramerror") and s.get("msg"):
        lines.append(Text(s["msg"], style="dim red"))
    return lines


def keno_card(card: dict) -> Table:
    """The 80 numbers, 8 rows of 10: picks in reverse video, numbers drawn in yellow, hits in green."""
    picks, drawn = set(card.get("picks", ())), set(card.get("drawn", ()))
    grid = Table.grid(padding=(0, 1))
    for r in range(8):
        cells = []
        for n in range(10 * r + 1, 10 * r + 11):
            style = ("bold black on green" if n in picks and n in drawn else "bold black on white" if n in picks
                     else "bold yellow" if n in drawn else "dim")
            cells.append(Text(f"{n:>2}", style=style))
        grid.add_row(*cells)
    grid.add_row(Text(f"{len(picks & drawn)}/{len(picks)}", style="bold"))
    return grid


def poker_key(key: str, screen: dict) -> str | None:
    """A key of video poker's hold keys, while a dealt hand waits: 1-5 hold, h auto-hold."""
    if not (screen.get("hand") or {}).get("open"):
        return None
    if key in "12345" and key:
        return f"hold {key}"
    return "auto" if key == "h" else None


def keno_key(key: str, typed: str, card: list) -> tuple[str, str | None]:
    """A key of the keno keypad: (digits still typed, command to send or None)."""
    if key.isdigit():
        return (typed + key)[-2:], None
    if key == "n" and typed:
        return "", f"spot {int(typed)}"
    if key == "x":
        return "", f"quick {int(typed) if typed else len(card) or 5}"
    if key == "z":
        return "", "clear"
    return typed, None


@contextmanager
def cbreak() -> Iterator[None]:
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def console_url(cab: EmulatedCabinet) -> str:
    return f"socket://127.0.0.1:{cab.ports['console']}"


def run_tty(cab: EmulatedCabinet, lang: str = "fr") -> None:
    note = f"console: make console  ({console_url(cab)})"
    typed = ""
    with cbreak(), Live(render(cab, note, lang), refresh_per_second=10, screen=False) as live:
        while True:
            ready, _, _ = select.select([sys.stdin], [], [], 0.1)
            if ready:
                key = sys.stdin.read(1).lower()
                card = (cab.panel.screen.get("reels") or {}) if cab.panel else {}
                poker = poker_key(key, cab.panel.screen if cab.panel else {})
                keno = None
                if not poker:
                    typed, keno = keno_key(key, typed, card.get("picks", []) if isinstance(card, dict) else [])
                what = poker or keno or KEYS.get(key)
                if what == "quit":
                    return
                if what == "lang":  # the player's choice, as the browser's language button: the firmware never knows
                    lang = "en" if lang == "fr" else "fr"
                elif what:
                    note = act(cab, what)
            if not cab.firmware.alive():
                note = "firmware stopped"
                live.update(render(cab, note, lang))
                return
            live.update(render(cab, note, lang))


def settled(cab: EmulatedCabinet, before: dict, timeout: float = 5.0) -> dict:
    """The screen once a command has shown its effect: a frame other than `before` with the reels
    stopped and no hopper paying (the game just played, with its own win), or the screen as it is
    when nothing changed in `timeout` seconds."""
    assert cab.panel
    try:
        return cab.panel.wait_for(lambda s: s != before and s.get("state") not in ("spin", "payout"), timeout)
    except (TimeoutError, ConnectionError):
        return dict(cab.panel.screen)


def run_lines(cab: EmulatedCabinet) -> None:
    assert cab.panel
    for line in sys.stdin:
        what = line.strip().lower()
        if not what:
            continue
        if what == "quit":
            break
        before = dict(cab.panel.screen)
        print(act(cab, what))
        print(settled(cab, before), flush=True)


def firmware_args(games: str | None, profile: str, jurisdiction: str | None = None) -> list[str]:
    """firmware/main.py's options for the offered games, the board profile and the jurisdiction
    profile (no config.py edit)."""
    return ((["--games", games] if games else []) + ["--profile", profile]
            + (["--jurisdiction", jurisdiction] if jurisdiction else []))


def add_config_args(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--games", help="offered games, comma-separated model ids (default: firmware/config.py GAMES); "
                                    "the first that passes its boot check is played")
    ap.add_argument("--profile", default="emulated", choices=("emulated", "pyboard", "rp2", "esp32"),
                    help="board profile the firmware boots as: a real board's wires only (no EM coils on "
                         "pyboard/rp2/esp32, their FRAM's size)")
    ap.add_argument("--jurisdiction", choices=("casino", "vlt"), default=None,
                    help="the rules the cabinet runs under (firmware/jurisdiction.py; default: firmware/config.py "
                         "JURISDICTION): vlt takes bills and enforces the video-lottery limits")


def boot_or_refuse(cab: EmulatedCabinet, login: bool = True, console: bool = True) -> int | None:
    """Power the cabinet on; a second cabinet on the same ports or state is refused by the firmware
    in one line, printed here as it is (its exit status returned), instead of a traceback. With
    login, the harness's administrator is made (on a fresh cabinet) and logged in; console=False
    leaves the console free for a technician's client."""
    try:
        cab.boot(login=login, console=console)
    except RuntimeError:
        fw = cab.firmware
        status = fw.proc.poll() if fw.proc is not None else None
        cab.shutdown()
        if status == BUSY_EXIT and fw.lines:
            print(fw.lines[-1], file=sys.stderr)
            return BUSY_EXIT
        # the firmware's own last word names why (its log, tracebacks included, is not the user's)
        last = fw.lines[-1] if fw.lines else "no output"
        print(f"cabinet: the firmware did not boot (exit status {status}): {last}", file=sys.stderr)
        return status or 1
    return None


def vlt_state(state: str, jurisdiction: str | None) -> str | None:
    """Why a cabinet whose state holds a signed vlt configuration cannot boot as asked: it stays a
    VLT until its operator signs another (docs/firmware.md "The operator's signed configuration"),
    and only `--jurisdiction vlt` plugs in its coupon printer. None when it can."""
    if jurisdiction == "vlt":
        return None
    try:
        config = json.loads((Path(state) / "operator.json").read_text())
    except (OSError, ValueError):
        return None  # none, or one the firmware refuses by name
    if not isinstance(config, dict) or config.get("JURISDICTION") != "vlt":
        return None
    return (f"cabinet: {state} is a video-lottery terminal (its operator.json, signed by an earlier "
            "`make run JURIS=vlt`): run it with JURIS=vlt (--jurisdiction vlt), give another --state, "
            "or start afresh (`make clean` removes var/)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.cabinet", description=__doc__.splitlines()[0])
    ap.add_argument("--heap", default=None, help="the firmware's fixed heap (default: the board's, sim/harness.py BOARD_HEAP)")
    ap.add_argument("--state", default="var/emulated", help="where the emulated board keeps its NVRAM file")
    ap.add_argument("--auto-ports", action="store_true", help="free ports instead of 7770-7772")
    ap.add_argument("--ports", help="console,cctalk,panel ports (default 7770,7771,7772)")
    ap.add_argument("--screen-port", type=int, default=None,
                    help=f"the player's screen in a browser (default {SCREEN_PORT}; a free one with --auto-ports)")
    ap.add_argument("--lang", choices=("fr", "en"), default="fr",
                    help="the terminal panel's language (French first, as the screen; the l key switches it)")
    ap.add_argument("--no-sas", action="store_true",
                    help="no SAS line (by default a pseudo-terminal a SAS host opens: docs/sas.md)")
    add_config_args(ap)
    args = ap.parse_args(argv)
    why = vlt_state(args.state, args.jurisdiction)
    if why:
        print(why, file=sys.stderr)
        return 2
    ports = dict(DEFAULT_PORTS)
    if args.ports:
        ports = dict(zip(DEFAULT_PORTS, (int(p) for p in args.ports.split(","))))
    cab = EmulatedCabinet(args.state, heap=args.heap, ports=None if args.auto_ports else ports,
                          extra_args=firmware_args(args.games, args.profile, args.jurisdiction), sas=not args.no_sas)
    # an operator's cabinet: no test bench account, and the console left to `make console` (the
    # panel needs none; holding it refused every technician: 'console busy')
    refused = boot_or_refuse(cab, login=False, console=False)
    if refused is not None:
        return refused
    print(f"firmware pid {cab.firmware.proc.pid}: {' '.join(cab.firmware.command())}", flush=True)
    print(f"technician console: {console_url(cab)} (make console"
          + ("" if cab.ports["console"] == DEFAULT_PORTS["console"] else f" URL={console_url(cab)}") + ")", flush=True)
    if cab.printer is not None:  # a coupon jurisdiction: where the emulated printer keeps its tickets
        print(f"coupons printed: {cab.printer.out_dir}/coupon-N.txt and .png", flush=True)
    port = args.screen_port if args.screen_port is not None else (0 if args.auto_ports else SCREEN_PORT)
    screen = ScreenServer(cab.ports["panel"], lambda what: act(cab, what), port=port)
    print(f"player's screen: {screen.url}", flush=True)
    if cab.sas_path:
        print(f"sas: {cab.sas_path} (SAS address 1, 19200 baud; docs/sas.md)", flush=True)
    try:
        if sys.stdin.isatty():
            run_tty(cab, args.lang)
        else:
            run_lines(cab)
    finally:
        screen.close()
        cab.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
