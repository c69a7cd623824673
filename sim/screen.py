"""The player's screen in a browser (`make run` prints its address; docs/screen.md).

A small stdlib HTTP server: it is one more tap on the emulated board's panel link and passes the
firmware's display frames (`display {json}`) on to the page as they come, as server-sent events;
the page draws them. Its buttons press the cabinet's real buttons, by the same path as the
terminal panel (sim/cabinet.py act). What the frames name by reference, the page reads from the
display's stored pages: the certified model's symbol names and its rules text (games describe),
in French and in English.
"""
from __future__ import annotations

import json
import queue
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

from games import ReelGame
from games.keno import KenoGame
from games.poker import PokerGame
from sim.panel_tap import PanelTap
from sim.replay import load_game

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(__file__).resolve().parent / "screen"
MODELS = ROOT / "games" / "models"
# the page's own files: nothing else is served from the disk
FILES = {"/": ("index.html", "text/html; charset=utf-8"), "/screen.js": ("screen.js", "text/javascript; charset=utf-8"),
         "/reels.js": ("reels.js", "text/javascript; charset=utf-8"),
         "/cards.js": ("cards.js", "text/javascript; charset=utf-8"),
         "/keno.js": ("keno.js", "text/javascript; charset=utf-8"),
         "/table.js": ("table.js", "text/javascript; charset=utf-8"),
         "/screen.css": ("screen.css", "text/css; charset=utf-8"), "/text.json": ("text.json", "application/json")}
# the page's buttons: the sim/cabinet.py act() commands they are (token: the emulator's coin slot)
BUTTONS = ("bet", "max", "play", "cashout", "token")
# video poker's keys on the screen (cards.js): the touch screen's hold keys and auto-hold
TOUCH = {"hold1": "hold 1", "hold2": "hold 2", "hold3": "hold 3", "hold4": "hold 4", "hold5": "hold 5", "auto": "auto",
         "clear": "clear"}
# keno's board on the screen (keno.js): a number touched (spot/N) and a quick pick of N spots (quick/N);
# a table game's layout (table.js): wager/N, the layout's key number N (games/table_game.py layout());
# the firmware checks N against the game (firmware/play_keno.py, play_table.py), this only that it is a small number
KENO_TOUCH = re.compile(r"(spot|quick)/([1-9][0-9]?)|(wager)/(0|[1-9][0-9]{0,2})")
MODEL_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
KEEPALIVE_S = 15.0

_models: dict[str, ReelGame] = {}
_models_lock = threading.Lock()


def model(game_id: str) -> ReelGame:
    """The certified model a frame names (its "id" or "rules"): KeyError when there is none."""
    if not MODEL_ID.fullmatch(game_id) or not (MODELS / f"{game_id}.json").is_file():
        raise KeyError(game_id)
    with _models_lock:
        if game_id not in _models:
            _models[game_id] = load_game(str(MODELS / f"{game_id}.json"))  # reels or keno, by its format
        return _models[game_id]


def model_page(game_id: str) -> dict:
    """What the screen shows of a model: its names, bets, symbol names and rules, in both languages."""
    game = model(game_id)
    syms = game.model.get("symbols")
    names = syms if isinstance(syms, dict) else {s: {"fr": s, "en": s} for s in getattr(game.m, "symbols", ())}
    kind = "keno" if isinstance(game, KenoGame) else "poker" if isinstance(game, PokerGame) else \
        "table" if hasattr(game, "play_round") else "cards" if hasattr(game, "givable") else "reels"
    page = {"id": game.id, "kind": kind, "name": game.name, "bets": list(game.bets), "symbols": names,
            "rules": {"fr": game.describe("fr"), "en": game.describe("en")}}
    m = game.m
    if kind == "keno":  # the board's size and the pay table per spot count (sim/screen/keno.js)
        page["keno"] = {"numbers": m.numbers, "drawn": m.drawn, "spots": list(m.spots),
                        "pay": {str(s): [list(row) for row in m.pay[s]] for s in m.spots}}
    elif kind == "table":  # the layout a touch names by number, each wager's name and bet levels (table.js)
        page["table"] = {"layout": game.layout(), "kind": game.kind,
                         "wagers": {wid: {"name": {lang: m.wager_name(wid, lang) for lang in ("fr", "en")},
                                          "bets": list(m.bets_of(wid))} for wid in m.ids}}
    elif kind == "cards":  # a card table (firmware/play_cards.py): its stake wagers by number, their names
        # units: how many times its credits a stake wager places (CardTable.units: Let It Ride's three
        # wagers, Boston's ante and first bet, Crazy Four's ante and Super Bonus)
        page["cards"] = {"stakes": list(m.stakes), "wagers": {w: {"name": m.names[w]} for w in m.stakes},
                         "decisions": list(game.DECISIONS), "units": {w: game.units(w) for w in m.stakes}}
    elif kind == "reels":  # the pay lines (row per reel, reels.js) and the scatter the outcome's -1 names
        page["rows"] = m.rows
        page["lines"] = [list(line) for line in m.lines]
        page["scatter"] = m.symbols[m.scatter] if m.scatter is not None else None
    return page


class FrameFeed:
    """The display frames as they come on the panel link; the last one for a newcomer."""

    def __init__(self, panel_port: int):
        self.tap = PanelTap(panel_port)
        self.last: str | None = None
        self._subs: list[queue.Queue[str | None]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.tap.lines():
            kind, _, rest = line.partition(" ")
            if kind != "display":
                continue
            with self._lock:
                self.last = rest
                for q in self._subs:
                    q.put(rest)
        with self._lock:
            for q in self._subs:
                q.put(None)  # the link closed: the firmware stopped

    def subscribe(self) -> "queue.Queue[str | None]":
        q: queue.Queue[str | None] = queue.Queue()
        with self._lock:
            if self.last is not None:
                q.put(self.last)
            self._subs.append(q)
        return q

    def unsubscribe(self, q: "queue.Queue[str | None]") -> None:
        with self._lock:
            if q in self._subs:
                self._subs.remove(q)

    def close(self) -> None:
        self.tap.close()


class ScreenServer:
    """http://127.0.0.1:PORT/ : the page, /events (server-sent display frames), /frame (the last
    one), /model/ID (a model's stored pages), POST /press/BUTTON."""

    def __init__(self, panel_port: int, press: Callable[[str], str], port: int = 0, host: str = "127.0.0.1"):
        self.feed = FrameFeed(panel_port)
        self.press = press
        self.httpd = ThreadingHTTPServer((host, port), _handler(self))
        self.httpd.daemon_threads = True
        self.closing = threading.Event()
        self.url = "http://%s:%d/" % (host, self.httpd.server_address[1])
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.feed.close()


def _handler(server: ScreenServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass  # the terminal panel owns the terminal

        def _send(self, status: int, body: bytes, ctype: str = "text/plain; charset=utf-8") -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, obj: object) -> None:
            self._send(HTTPStatus.OK, json.dumps(obj, ensure_ascii=False).encode(), "application/json; charset=utf-8")

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path in FILES:
                name, ctype = FILES[path]
                self._send(HTTPStatus.OK, (PAGE / name).read_bytes(), ctype)
            elif path == "/events":
                self._events()
            elif path == "/frame":
                last = server.feed.last
                self._send(HTTPStatus.OK if last else HTTPStatus.NO_CONTENT, (last or "").encode(), "application/json")
            elif path.startswith("/model/"):
                try:
                    self._json(model_page(path[len("/model/"):]))
                except KeyError:
                    self._send(HTTPStatus.NOT_FOUND, b"no such certified model\n")
            else:
                self._send(HTTPStatus.NOT_FOUND, b"not found\n")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            what = self.path[len("/press/"):] if self.path.startswith("/press/") else ""
            keno = KENO_TOUCH.fullmatch(what)
            if what not in BUTTONS and what not in TOUCH and not keno:
                self._send(HTTPStatus.NOT_FOUND, b"no such button\n")
                return
            try:
                words = [g for g in keno.groups() if g is not None] if keno else None
                note = server.press("%s %s" % tuple(words) if keno else TOUCH.get(what, what))
            except (AssertionError, OSError) as e:  # the cabinet is powered off or its panel gone
                self._send(HTTPStatus.SERVICE_UNAVAILABLE, ("cabinet not ready: %s\n" % e).encode())
                return
            self._send(HTTPStatus.OK, (note + "\n").encode())

        def _events(self) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            q = server.feed.subscribe()
            try:
                while not server.closing.is_set():
                    try:
                        frame = q.get(timeout=KEEPALIVE_S)
                    except queue.Empty:
                        self.wfile.write(b": keep-alive\n\n")  # finds a browser that went away
                    else:
                        if frame is None:
                            self.wfile.write(b"event: closed\ndata: \n\n")
                            break
                        self.wfile.write(b"data: " + frame.encode() + b"\n\n")
                    self.wfile.flush()
            except OSError:
                pass  # the browser went away
            finally:
                server.feed.unsubscribe(q)

    return Handler
