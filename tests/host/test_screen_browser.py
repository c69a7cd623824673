"""The player's screen (sim/screen.py, docs/screen.md) in a real headless Chromium (Debian's
`chromium`, `make browser-tools`), driven through the DevTools protocol (tools/headless.py): a
player puts in tokens and plays with the page's buttons on the real firmware until a game wins,
switches the language, cashes out; the DOM and the screenshots are checked in French and in English.
The screenshots are kept for a human under build/screen-render/."""
from __future__ import annotations

import io
import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from PIL import Image

from firmware import states
from sim.cabinet import act
from sim.harness import EmulatedCabinet
from sim.screen import ScreenServer
from tools.headless import Chromium
from tools.par import browser

ROOT = Path(__file__).resolve().parents[2]
GAME = "trefle-94"  # bet 5, a win in 3 games of 4 (games/certs/trefle-94.json hit_frequency 31463/41847)
MODEL = json.loads((ROOT / "games" / "models" / f"{GAME}.json").read_text(encoding="utf-8"))
TEXT = json.loads((ROOT / "sim" / "screen" / "text.json").read_text(encoding="utf-8"))
SHOTS = ROOT / "build" / "screen-render"
CENTS = 25  # firmware/config.py DENOM_CENTS: a $1 token is 4 credits


def dollars(credits: int, lang: str, cents: int = CENTS) -> str:
    """Canadian dollars as the OQLF writes them in French ("1 250,00 $", a no-break space between
    thousands) and as English does ("$1,250.00")."""
    c = credits * cents
    whole = f"{c // 100:,}"
    return "%s,%02d $" % (whole.replace(",", "\u00a0"), c % 100) if lang == "fr" else "$%s.%02d" % (whole, c % 100)


def credits_word(n: int, lang: str) -> str:
    """'crédit' / 'credit' for one (French: 0 and 1, the CLDR plural rules), else the plural."""
    one = n < 2 if lang == "fr" else n == 1
    return ("crédit" if one else "crédits") if lang == "fr" else ("credit" if one else "credits")


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmulatedCabinet, ScreenServer]]:
    cab = EmulatedCabinet(tmp_path_factory.mktemp("screen"), extra_args=["--games", GAME]).boot(login=False)
    server = ScreenServer(cab.ports["panel"], lambda what: act(cab, what))
    try:
        yield cab, server
    finally:
        server.close()
        cab.shutdown()


@pytest.fixture(scope="module")
def page(rig: tuple[EmulatedCabinet, ScreenServer]) -> Iterator[Chromium]:
    if browser.find() is None:  # make test installs it (browser-tools); a bare pytest says how
        pytest.fail("no headless Chromium: run `make browser-tools` (apt-get install -y --no-install-recommends "
                    + " ".join(browser.PACKAGES) + ")")
    c = Chromium(1100, 900)
    try:
        c.open(rig[1].url)
        c.wait(lambda: text(c, "#state"), "the first display frame")
        c.wait(lambda: c.js("document.querySelectorAll('#pays tbody tr').length"), "the model's pay table")
        yield c
    finally:
        c.close()


def get(url: str, method: str = "GET") -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def switch_lang(c: Chromium) -> None:
    """Presses the language key. A frame from the cabinet may move the page between finding the key
    and pressing it, and the press then lands beside it: the key's handler changes the language at
    once (sim/screen/screen.js), so a press that changed nothing is made again."""
    was = c.js("document.documentElement.lang")
    for _ in range(5):
        c.click("#b-lang")
        try:
            c.wait(lambda: c.js("document.documentElement.lang") != was, "the other language", 2)
            return
        except TimeoutError:
            continue
    raise TimeoutError("the language key never changed the language")


def text(c: Chromium, selector: str) -> str:
    return c.js("(document.querySelector(%s) || {}).textContent || ''" % json.dumps(selector))


# a pay table's rows: the first cell's text, then each cell's credits (.cr; its dollars are .usd)
PAY_ROWS = ("[...document.querySelectorAll(%s)].map(r => [...r.cells].map((e, i) => "
            "i ? e.querySelector('.cr').textContent : e.textContent))")
PAY_DOLLARS = "[...document.querySelectorAll(%s)].map(r => [...r.cells].slice(1).map(e => e.querySelector('.usd').textContent))"
PAY_HEAD = "[...document.querySelectorAll(%s)].map((e, i) => i ? e.querySelector('.cr').textContent : e.textContent)"


def cells(c: Chromium) -> list[tuple[str, str]]:
    """(symbol code, shown name) of every reel cell, row after row."""
    return [tuple(x) for x in c.js("[...document.querySelectorAll('.sym')].map(e => [e.dataset.sym, "
                                   "e.querySelector('.name').textContent])")]


def settled(cab: EmulatedCabinet, c: Chromium, games: int) -> dict:
    """The frame once game number `games` is over, and the page showing it."""
    assert cab.panel
    s = cab.panel.wait_for(lambda s: s.get("games") == games and s.get("state") != "spin")
    c.wait(lambda: text(c, "#games") == str(games) and text(c, "#credits") == str(s["credits"])
           and not c.js("!!document.querySelector('.reels.spinning')"), "game %d over" % games)
    return s


def read_png(data: bytes) -> Image.Image:
    """A screenshot's pixels (Pillow), as RGB."""
    return Image.open(io.BytesIO(data)).convert("RGB")


def colours(img: Image.Image) -> int:
    """How many distinct colours an image holds."""
    return len(img.getcolors(img.width * img.height))


def shot(c: Chromium, name: str) -> Image.Image:
    c.js("window.scrollTo(0, 0)")
    data = c.screenshot()
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / name).write_bytes(data)
    return read_png(data)


def box_pixels(c: Chromium, selector: str) -> bytes:
    c.js("window.scrollTo(0, 0)")
    b = c.box(selector)
    return read_png(c.screenshot({k: round(v) for k, v in b.items()})).tobytes()


# --- the server alone ------------------------------------------------------------------------------
def test_the_server_passes_the_firmwares_frame_and_refuses_what_it_does_not_serve(rig) -> None:
    cab, server = rig
    assert cab.panel
    # the server's tap connects after boot: until the firmware's loop gives it the current frame, /frame
    # has none (204); CI once asked in between. Both taps then hold the same frame once neither lags.
    deadline = time.monotonic() + 20
    while True:
        status, body = get(server.url + "frame")
        if status == 200 and json.loads(body) == cab.panel.screen or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert status == 200 and json.loads(body) == cab.panel.screen  # the harness's own tap saw the same
    assert get(server.url + "press/lamp_tower", "POST")[0] == 404  # only the player's buttons
    assert get(server.url + "press/key_reset", "POST")[0] == 404  # the attendant's key is not the player's
    for bad in ("spot/0", "spot/100", "spot/x", "quick/", "spot/17/1", "clear/1"):  # keno's touches: a small number
        assert get(server.url + "press/" + bad, "POST")[0] == 404, bad
    assert get(server.url + "press/spot/17", "POST") == (200, b"touched spot 17\n")  # a reel game loses it
    assert get(server.url + "model/no-such-game")[0] == 404
    assert get(server.url + "model/..%2F..%2Ffirmware%2Fconfig")[0] == 404
    assert get(server.url + "../firmware/config.py")[0] == 404
    status, body = get(server.url + "model/" + GAME)
    m = json.loads(body)
    assert status == 200 and m["symbols"] == MODEL["symbols"] and m["bets"] == MODEL["bets"]


def test_every_message_state_tilt_and_lock_the_firmware_names_is_in_both_languages() -> None:
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "firmware").glob("*.py"))
    # a part sets the screen's message on the screen it was given (firmware/screen.py): self.screen, sc
    ids = set(re.findall(r'(?:self|screen|sc)\.message = \("(\w+)"', src)) | set(re.findall(r'say = [(\[]"(\w+)"', src))
    tilts = set(re.findall(r'set_tilt\("(\w+)"', src)) | set(re.findall(r'set_tilt\("(\w+)" if', src))
    tilts |= set(re.findall(r'found\.append\(\("(\w+)"', src))  # startup: faults found before the cabinet is made
    tilts |= set(re.findall(r'set_tilt\("\w+" if [^,]* else "(\w+)",', src))  # set_tilt("fraud" if ... else "acceptor", why)
    tilts |= set(re.findall(r'void\([^()]*\("(\w+)", why\)\)', src))  # ledger.void(..., ("prize", why))
    locks = set(re.findall(r'"lock"\] = \{"kind": "(\w+)"', src))
    assert {"insert", "paying", "paid", "entry", "lock", "tilt", "ramerror"} <= ids, ids  # the parse finds them
    assert {"acceptor", "fraud", "hopper", "rng", "game", "limits", "prize"} <= tilts and {"handpay", "jackpot"} <= locks
    for lang in ("fr", "en"):
        t = TEXT[lang]
        assert ids <= set(t["say"]), (lang, ids - set(t["say"]))
        assert tilts <= set(t["tilt"]), (lang, tilts - set(t["tilt"]))
        assert locks <= set(t["lock"]), (lang, locks - set(t["lock"]))
        assert set(states.STATES) <= set(t["state"]), (lang, set(states.STATES) - set(t["state"]))
    for section in TEXT["fr"]:
        assert set(TEXT["fr"][section]) == set(TEXT["en"][section]), section


def test_every_card_table_decision_is_a_key_in_both_languages() -> None:
    # the decisions a card table's hand waits for (firmware/play_cards.py table.decide: the engine's
    # DECISIONS) each have their words in French and in English (text.json "decide", cards.js keys);
    # 3-5-7's withdrawal, Boston's second bet and Crazy Four's 1 x and 3 x play had none: the key said
    # the engine's English word on a French screen
    from firmware.startup import CARDS_PLAYED
    from games.cardtable_games import engine

    names = {d for fmt in CARDS_PLAYED for d in engine(fmt).DECISIONS}
    assert {"withdraw", "keep", "second bet", "play 1 x", "play 3 x"} <= names, names
    for lang in ("fr", "en"):
        assert names <= set(TEXT[lang]["decide"]), (lang, names - set(TEXT[lang]["decide"]))


# --- a player at the page -----------------------------------------------------------------------------
def test_a_player_plays_to_a_win_in_french_then_reads_it_in_english(rig, page: Chromium) -> None:
    cab, _ = rig
    c = page
    assert c.js("document.documentElement.lang") == "fr"  # French first
    # the pay table for every bet: a known row from the certified model (pays HARP "3": [200, 400, 1500])
    assert c.js(PAY_HEAD % "'#pays thead th'") == ["Gain", "Mise 5", "Mise 10", "Mise 25"]
    rows = c.js(PAY_ROWS % "'#pays tbody tr'")
    assert ["3 x Harpe", "200", "400", "1500"] in rows and len(rows) == 8  # 6 line pays, 2 scatter pays
    # beside every pay its value at the cabinet's credit (25 cents): 200 credits are 50,00 $
    harp = rows.index(["3 x Harpe", "200", "400", "1500"])
    assert c.js(PAY_DOLLARS % "'#pays tbody tr'")[harp] == ["50,00 $", "100,00 $", "375,00 $"]
    assert c.js("[...document.querySelectorAll('#pays thead th .usd')].map(e => e.textContent)") == \
        ["1,25 $", "2,50 $", "6,25 $"]
    games, frame = 0, {}
    for games in range(1, 16):  # P(no win in 15) = (10384/41847)^15 < 1e-9
        while int(text(c, "#credits")) < 5:
            before = int(text(c, "#credits"))
            c.click("#b-token")  # the emulated coin slot
            c.wait(lambda: int(text(c, "#credits")) == before + 4, "a token's 4 credits")
        c.click("#b-play")
        frame = settled(cab, c, games)
        assert [code for code, _ in cells(c)] == [code for row in frame["reels"] for code in row]
        for code, name in cells(c):  # the model's names, never its codes
            assert name == MODEL["symbols"][code]["fr"], (code, name)
        if frame["win"]:
            break
    assert frame["win"] > 0, "no win in %d games" % games
    win, credits = frame["win"], frame["credits"]
    # the frame's outcome: the bet the game was played at, and its winning lines (docs/screen.md)
    assert frame["outcome"]["bet"] == 5 and sum(w[1] for w in frame["outcome"]["lines"]) == win, frame
    big = win > 5  # a win no larger than the bet is said plainly, not celebrated
    assert text(c, "#win") == str(win)
    assert c.js("document.getElementById('m-win').classList.contains('won')") == big
    assert text(c, "#win-dollars") == dollars(win, "fr") and text(c, "#credits-dollars") == dollars(credits, "fr")
    fr_win = ("Gagné : %d %s (%s)" % (win, credits_word(win, "fr"), dollars(win, "fr")) if big else
              "Gagné %d %s (%s) sur une mise de 1,25 $" % (win, credits_word(win, "fr"), dollars(win, "fr")))
    assert text(c, "#message") == fr_win
    assert [text(c, "#b-" + b) for b in ("bet", "max", "play", "cashout", "lang")] == \
        ["Mise +", "Mise max", "Jouer", "Encaisser", "English"]
    fr = shot(c, "fr.png")
    fr_labels, fr_glyph = box_pixels(c, "#buttons"), box_pixels(c, ".sym svg")

    switch_lang(c)
    c.wait(lambda: c.js("document.documentElement.lang") == "en", "English")
    assert [text(c, "#b-" + b) for b in ("bet", "max", "play", "cashout", "lang")] == \
        ["Bet one", "Max bet", "Play", "Cash out", "Français"]
    assert text(c, "#message") == ("You won %d %s (%s)" % (win, credits_word(win, "en"), dollars(win, "en")) if big else
                                   "Won %d %s (%s) on a $1.25 bet" % (win, credits_word(win, "en"), dollars(win, "en")))
    assert text(c, "#credits-dollars") == dollars(credits, "en")
    for code, name in cells(c):
        assert name == MODEL["symbols"][code]["en"], (code, name)
    assert ["3 x Harp", "200", "400", "1500"] in c.js(PAY_ROWS % "'#pays tbody tr'")
    assert c.js(PAY_DOLLARS % "'#pays tbody tr'")[harp] == ["$50.00", "$100.00", "$375.00"]
    en = shot(c, "en.png")
    en_labels, en_glyph = box_pixels(c, "#buttons"), box_pixels(c, ".sym svg")

    for img in (fr, en):  # drawn, not blank: the page's own colours where CSS puts them
        assert (img.width, img.height) == (1100, 900)
        assert colours(img) > 100
        assert img.getpixel((img.width - 3, img.height // 2)) == (0x10, 0x23, 0x3F)  # body background
        assert img.getpixel((3, 3)) == (0x0A, 0x18, 0x30)  # the header
    assert fr.tobytes() != en.tobytes()
    assert fr_labels != en_labels  # where the words are, the two languages differ ...
    assert fr_glyph == en_glyph  # ... and a reel symbol's drawing is the same in both


def play_until(cab: EmulatedCabinet, c: Chromium, want, tries: int = 25) -> dict:
    """Games played with the page's buttons (a token when the credits run short) until the settled
    frame satisfies want; that frame."""
    frame: dict = {}
    for _ in range(tries):
        while int(text(c, "#credits")) < 5:
            before = int(text(c, "#credits"))
            c.click("#b-token")
            c.wait(lambda: int(text(c, "#credits")) == before + 4, "a token's 4 credits")
        games = int(text(c, "#games")) + 1
        c.click("#b-play")
        frame = settled(cab, c, games)
        if want(frame):
            return frame
    raise AssertionError("no such game in %d: last %s" % (tries, frame))


def test_the_winning_lines_are_drawn_over_the_window_and_listed(rig, page: Chromium) -> None:
    """Issue 23.12: after a win, each winning line of the frame's outcome is drawn over the reels
    through the cells the model's line names (games/models/trefle-94.json "lines", row per reel),
    and listed beneath with its credits; the rules show every pay line as a small diagram."""
    cab, _ = rig
    c = page
    if c.js("document.documentElement.lang") != "fr":
        switch_lang(c)
    # P(no line win in 25 games) is below 1e-9 at trefle-94's hit frequency
    frame = play_until(cab, c, lambda f: any(li >= 0 for li, _ in f["outcome"]["lines"]))
    won = [(li, cr) for li, cr in frame["outcome"]["lines"] if li >= 0]
    c.wait(lambda: c.js("document.querySelectorAll('.win-line').length") == len(won), "the winning lines")
    # each polyline's points, in the overlay's own coordinates, against the boxes of the cells
    # the model's line goes through, measured from the page (row r, reel i: the (r * 3 + i)-th cell)
    got = c.js("""(() => { const svg = document.querySelector('.win-lines'), o = svg.getBoundingClientRect();
        const cells = [...document.querySelectorAll('.reels .sym')].map(e => e.getBoundingClientRect());
        return [...document.querySelectorAll('.win-line')].map(p => [+p.dataset.line,
            p.getAttribute('points').split(' ').map(xy => xy.split(',').map(Number)),
            cells.map(r => [r.left - o.left, r.top - o.top, r.right - o.left, r.bottom - o.top])]); })()""")
    assert sorted(g[0] for g in got) == sorted(li for li, _ in won)
    for li, points, boxes in got:
        rows = MODEL["lines"][li]
        assert len(points) == len(rows) == 3
        for reel, (x, y) in enumerate(points):
            left, top, right, bottom = boxes[rows[reel] * 3 + reel]
            assert left < x < right and top < y < bottom, (li, reel, x, y, boxes[rows[reel] * 3 + reel])
    listed = c.js("[...document.querySelectorAll('ul.wins li')].map(e => e.textContent)")
    for li, cr in won:
        assert "Ligne %d : %d %s" % (li + 1, cr, credits_word(cr, "fr")) in listed, listed
    shot(c, "lines-fr.png")
    # the rules' pay lines: one diagram per line of the model, its highlighted cell in each reel
    # on the line's row (the cells' positions read from the drawing)
    diagrams = c.js("""[...document.querySelectorAll('#lines figure')].map(f => {
        const rects = [...f.querySelectorAll('rect')];
        const xs = [...new Set(rects.map(r => +r.getAttribute('x')))].sort((a, b) => a - b);
        const ys = [...new Set(rects.map(r => +r.getAttribute('y')))].sort((a, b) => a - b);
        const on = rects.filter(r => r.getAttribute('fill') === '#ffd34d');
        return [f.querySelector('figcaption').textContent,
                on.map(r => [xs.indexOf(+r.getAttribute('x')), ys.indexOf(+r.getAttribute('y'))])]; })""")
    assert [d[0] for d in diagrams] == ["Ligne %d" % (i + 1) for i in range(len(MODEL["lines"]))]
    for (_, on), line in zip(diagrams, MODEL["lines"]):
        assert sorted(on) == [[reel, row] for reel, row in enumerate(line)]


def show_frame(c: Chromium, frame: str) -> None:
    """Draws an injected frame and keeps it drawn (a frame from the cabinet would draw its own):
    undone by unpin()."""
    c.js("window.drawFrame = window.drawFrame || draw; draw = () => { S.frame = %s; drawFrame(); }; draw()" % frame)


def unpin(c: Chromium) -> None:
    c.js("if (window.drawFrame) { draw = window.drawFrame; delete window.drawFrame; } draw()")


# the message, whether it is said plainly, whether the win meter is celebrated
SAID = "[$('message').textContent, $('message').classList.contains('plain'), $('m-win').classList.contains('won')]"


def test_a_win_no_larger_than_the_bet_is_said_plainly_a_larger_one_celebrated(page: Chromium) -> None:
    """Issue 23.12: 'Gagné : 10 crédits (2,50 $)' was celebrated on a 5,00 $ bet. A win at most the
    bet it was played at (frame.outcome.bet, not the bet meter, which the player may have changed
    since) is said as what it is, in neither the gold nor the bold of a win."""
    c = page
    base = ("{state: 'credit', credits: 40, cents: 25, id: %s, reels: %s, bet: %%d, win: %%d, "
            "outcome: {bet: %%d, lines: [[1, %%d]]}}") % (
        json.dumps(GAME), json.dumps([["COIN", "CLOVER", "BELL"], ["HAT", "COIN", "BLANK"], ["BLANK", "BELL", "HAT"]]))
    try:
        for lang in ("fr", "en"):
            if c.js("document.documentElement.lang") != lang:
                switch_lang(c)
            # played at 25 (6,25 $), won 10; the bet meter is back at 5 since
            show_frame(c, base % (5, 10, 25, 10))
            said = c.js(SAID)
            assert said == [{"fr": "Gagné 10 crédits (2,50 $) sur une mise de 6,25 $",
                             "en": "Won 10 credits ($2.50) on a $6.25 bet"}[lang], True, False]
            shot(c, "win-below-bet-%s.png" % lang)
            show_frame(c, base % (5, 5, 5, 5))  # the bet back: still not a gain
            assert c.js("[$('message').textContent, $('m-win').classList.contains('won')]") == [
                {"fr": "Gagné 5 crédits (1,25 $) sur une mise de 1,25 $",
                 "en": "Won 5 credits ($1.25) on a $1.25 bet"}[lang], False]
            show_frame(c, base % (5, 1, 1, 1))  # one credit: singular
            assert text(c, "#message") == {"fr": "Gagné 1 crédit (0,25 $) sur une mise de 0,25 $",
                                           "en": "Won 1 credit ($0.25) on a $0.25 bet"}[lang]
            show_frame(c, base % (5, 6000, 5, 6000))
            said = c.js(SAID)
            assert said == [{"fr": "Gagné : 6000 crédits (1\u00a0500,00 $)", "en": "You won 6000 credits ($1,500.00)"}[lang],
                            False, True]
    finally:
        unpin(c)


REEL_MODELS = sorted({p.stem for p in (ROOT / "games" / "models").glob("*.json")
                      if json.loads(p.read_text(encoding="utf-8"))["format"].startswith("jeton-reels/")})


@pytest.mark.parametrize("gid", REEL_MODELS)
def test_every_symbol_of_every_reel_game_has_a_drawing_of_its_own(page: Chromium, gid: str) -> None:
    """Issue 23.12: aurore drew A, K, Q, J and its four animals as one gem shape. Every symbol of
    every shipped reel model has a drawing of its own (not the fallback gem), and no two of a
    game's symbols draw the same pixels; build/screen-render/symbols-ID.png for a human's look."""
    c = page
    model = json.loads((ROOT / "games" / "models" / f"{gid}.json").read_text(encoding="utf-8"))
    codes = list(model["symbols"])
    n = 4  # four a row: every cell inside the 900-pixel viewport
    window = [codes[i:i + n] + [codes[0]] * (n - len(codes[i:i + n])) for i in range(0, len(codes), n)]
    assert c.js("%s.filter(k => !Object.prototype.hasOwnProperty.call(GLYPHS, k))" % json.dumps(codes)) == []
    try:
        show_frame(c, "{state: 'credit', credits: 0, cents: 25, id: %s, reels: %s}" % (json.dumps(gid), json.dumps(window)))
        c.wait(lambda: c.js("document.querySelector('.sym .name').textContent") != "", "the model's names")
        c.js("window.scrollTo(0, 0)")
        boxes = c.js("[...document.querySelectorAll('.sym svg')].slice(0, %d).map(e => { const r = e.getBoundingClientRect(); "
                     "return {left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right), "
                     "bottom: Math.round(r.bottom)}; })" % len(codes))
        assert all(b["bottom"] <= 900 for b in boxes), boxes
        pixels = {}
        for code, b in zip(codes, boxes):
            pixels[code] = read_png(c.screenshot(b)).tobytes()
        same = [(a, b) for i, a in enumerate(codes) for b in codes[i + 1:] if pixels[a] == pixels[b]]
        assert not same, same
        shot(c, f"symbols-{gid}.png")
    finally:
        unpin(c)


def test_hand_pay_bet_refusal_and_the_limits_are_said_with_dollars(page: Chromium) -> None:
    """Issue 23.12 and 23.15: a hand pay says its dollars; a vlt's bet refusal and its limits tilt
    say why play is stopped with the profile's figures (frame.limits, firmware/jurisdiction.py)."""
    c = page
    limits = "limits: {bet: 250, prize: 100000}"
    cases = [
        ("{state: 'handpay', credits: 1200, cents: 25, say: ['lock', 'handpay', 1200]}",
         "Paiement manuel : 1200 crédits (300,00 $). Appelez un préposé", "Hand pay: 1200 credits ($300.00). Call an attendant"),
        ("{state: 'jackpot', credits: 0, cents: 25, say: ['lock', 'jackpot', 1]}",
         "Gros lot : 1 crédit (0,25 $). Appelez un préposé", "Jackpot: 1 credit ($0.25). Call an attendant"),
        ("{state: 'credit', credits: 40, cents: 25, say: ['bet_refused'], %s}" % limits,
         "Mise refusée : au-delà des limites de l'appareil (mise d'au plus 2,50 $, lot d'au plus 1\u00a0000,00 $)",
         "Bet refused: over this machine's limits (bet at most $2.50, prize at most $1,000.00)"),
        ("{state: 'tilt', credits: 0, cents: 25, say: ['tilt', 'limits'], %s}" % limits,
         "Hors service : aucun jeu offert ne respecte les limites permises sur cet appareil (mise d'au plus 2,50 $, "
         "lot d'au plus 1\u00a0000,00 $). Appelez un préposé",
         "Out of service: no game offered is within the limits allowed on this machine (bet at most $2.50, "
         "prize at most $1,000.00). Call an attendant"),
        ("{state: 'payout', credits: 0, cents: 25, say: ['paying', 1]}",
         "Paiement en cours : encore 1 pièce", "Paying: 1 coin to go"),
    ]
    try:
        for frame, fr, en in cases:
            for lang, want in (("fr", fr), ("en", en)):
                if c.js("document.documentElement.lang") != lang:
                    switch_lang(c)
                show_frame(c, frame)
                assert text(c, "#message") == want
    finally:
        unpin(c)


def test_cash_out_and_a_tilt_are_said_in_the_players_language(rig, page: Chromium) -> None:
    cab, _ = rig
    assert cab.panel
    c = page
    if c.js("document.documentElement.lang") != "en":
        switch_lang(c)
    c.click("#b-cashout")
    s = cab.panel.wait_for(lambda s: s.get("credits") == 0 or s.get("state") == "handpay", 20)
    say = s["say"]
    c.wait(lambda: text(c, "#credits") == str(s["credits"]) and text(c, "#state") == TEXT["en"]["state"][s["state"]],
           "the cash-out")
    if say[0] == "lock":  # less than a token left: the attendant pays it by hand, its dollars said
        n = say[2]
        assert text(c, "#message") == "Hand pay: %d %s (%s). Call an attendant" % (n, credits_word(n, "en"), dollars(n, "en"))
        cab.attendant_key()
        s = cab.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") != "handpay")
    assert s["say"][0] == "paid"
    n = s["say"][1]
    c.wait(lambda: text(c, "#message") == "Paid: %d %s (%s)" % (n, credits_word(n, "en"), dollars(n, "en")), "paid")
    switch_lang(c)
    c.wait(lambda: text(c, "#message") == "Payé : %d %s (%s)" % (n, credits_word(n, "fr"), dollars(n, "fr")), "payé")

    cab.panel.tap.send_line("entropy stuck")  # the noise source dies: the RNG's health tests trip
    s = cab.panel.wait_for(lambda s: s.get("state") == "tilt")
    assert s["say"] == ["tilt", "rng"] and "rng:" in s["msg"]  # the technician keeps the reason
    c.wait(lambda: text(c, "#message") == "Hors service : générateur de nombres aléatoires. Appelez un préposé",
           "the tilt in French")
    assert c.js("document.getElementById('message').classList.contains('fault')")
    switch_lang(c)
    c.wait(lambda: text(c, "#message") == "Out of service: random number generator. Call an attendant",
           "the tilt in English")
    shot(c, "tilt-en.png")


def test_fields_and_game_kinds_the_page_does_not_know_are_ignored(page: Chromium) -> None:
    c = page
    # a later firmware's frame: a new field, a new message id and a play area no renderer knows
    # (drawn and read in one evaluation: a frame from the cabinet cannot come in between)
    frame = ("{state: 'credit', credits: 3, cents: 25, id: %s, say: ['voucher', 7], voucher: {n: 1}, cards: [['AS', 'KH']]}"
             % json.dumps(GAME))
    shown = c.js("S.frame = %s; draw(); [$('credits').textContent, $('message').textContent, "
                 "$('play-area').children.length]" % frame)
    assert shown == ["3", "voucher 7", 0]  # an unknown id as it came; no renderer, an empty play area
    shown = c.js("RENDERERS.cards = (el, f) => { el.textContent = f.cards[0].length + ' cards'; }; "
                 "S.frame = %s; draw(); $('play-area').textContent" % frame)
    assert shown == "2 cards"  # a new kind only adds its renderer


def test_a_poker_hand_is_drawn_as_cards_with_hold_keys(rig, page: Chromium) -> None:
    """Video poker's frame (docs/screen.md `hand`): five cards, the hold flag under each in the
    player's language, a card a hold key while the hand waits (POST /press/holdN, the touch
    screen's `hold N`), an auto-hold key; once drawn, cards only. Drawn from an injected frame (this
    module's cabinet plays reels), read and clicked in one evaluation."""
    cab, server = rig
    c = page
    lang = c.js("document.documentElement.lang")
    held = {"fr": "GARDÉE", "en": "HELD"}[lang]
    frame = ("{state: 'hold', credits: 7, cents: 25, id: 'jacks-98', reels: [['As', 'Td', '7h', '7c', 'JK']], "
             "hand: {held: [0, 0, 1, 1, 0], open: true}}")
    shown = c.js("const posts = []; const was = window.fetch; window.fetch = (u, o) => { if (!o || o.method !== 'POST') "
                 "return was(u, o); posts.push(u); return Promise.resolve({ok: false}); }; S.frame = %s; draw(); "
                 "const cards = [...document.querySelectorAll('.card')]; cards[1].click(); $('b-auto').click(); "
                 "window.fetch = was; [cards.map(e => [e.dataset.card, e.querySelector('.face').textContent, "
                 "e.querySelector('.flag').textContent, e.tagName]), posts, "
                 "getComputedStyle(cards[0].querySelector('.face')).color, "
                 "getComputedStyle(cards[1].querySelector('.face')).color]" % frame)
    got, posts, spade, diamond = shown
    assert [g[:3] for g in got] == [["As", "A\u2660", ""], ["Td", "10\u2666", ""], ["7h", "7\u2665", held],
                                    ["7c", "7\u2663", held], ["JK", "\u2605", ""]]
    assert all(g[3] == "BUTTON" for g in got) and posts == ["/press/hold2", "/press/auto"]
    assert spade == "rgb(17, 17, 17)" and diamond == "rgb(200, 16, 46)"
    # the screenshot, for a human: the frame pinned meanwhile (a frame from the cabinet draws it again)
    c.js("window.drawFrame = draw; draw = () => { S.frame = %s; drawFrame(); }; draw()" % frame)
    try:
        # its pay table: one row per award, a column per bet (games/models/jacks-98.json: the royal
        # flush pays 250 per coin, 4000 at 5 coins)
        c.wait(lambda: c.js("document.querySelectorAll('#pays tbody tr').length") == 9, "the poker pay table")
        royal = c.js(PAY_ROWS % "'#pays tbody tr'")[0]
        assert royal == [{"fr": "Quinte flush royale", "en": "Royal flush"}[lang], "250", "500", "750", "1000", "4000"]
        # the play button draws the hand that waits (the by-law's French "poker à tirage": Tirer)
        assert text(c, "#b-play") == {"fr": "Tirer", "en": "Draw"}[lang]
        shot(c, f"poker-{lang}.png")
    finally:
        c.js("draw = window.drawFrame; draw()")
    drawn = c.js("S.frame = %s; draw(); [[...document.querySelectorAll('.card')].map(e => e.tagName), "
                 "!!document.getElementById('b-auto'), [...document.querySelectorAll('.card .flag')].map(e => e.textContent), "
                 "document.querySelectorAll('.card.held').length, $('b-play').textContent]"
                 % frame.replace("open: true", "open: false").replace("state: 'hold'", "state: 'credit'"))
    # drawn: no hold key any more, and no card marked held (issue 23.14: the marks stayed); PLAY deals
    assert drawn == [["DIV"] * 5, False, [""] * 5, 0, {"fr": "Donner", "en": "Deal"}[lang]]

    # the server takes the hold keys as the touch screen's (this reel cabinet ignores them)
    assert get(server.url + "press/hold2", "POST") == (200, b"touched hold 2\n")
    assert get(server.url + "press/auto", "POST") == (200, b"touched auto\n")
    assert get(server.url + "press/hold6", "POST")[0] == 404


def test_a_card_table_hand_shows_its_cards_and_the_decisions_waiting_as_keys(rig, page: Chromium) -> None:
    """A card-poker table's frames (firmware/play_cards.py: the stake in `table`, the decisions the
    hand waits for in `table.decide`, "N name": hold key N; the cards the player may see in
    `reels`): the model's stake wagers as the layout's keys, the cards, and each decision a key in
    the player's words (POST /press/holdN) with the auto decision's (POST /press/auto); none once
    the round is over. Injected frames of red-dog-97 (this module's cabinet plays reels), read and
    clicked in one evaluation, in French and in English; then crazy-four-92's, its 1 x and 3 x play."""
    c = page
    waiting = ("{state: 'hold', credits: 7, cents: 25, id: 'red-dog-97', reels: [['3c', 'Jd']], "
               "table: {stake: {wager: 2}, table: null, takes: 4, decide: ['1 no raise', '2 raise']}}")
    c.js("S.frame = %s; draw()" % waiting)  # asks for the model's page
    c.wait(lambda: c.js("!!(S.models['red-dog-97'] && S.models['red-dog-97'].cards)"), "red-dog-97's page")
    words = {"fr": ["Ne pas relancer", "Relancer", "Décision automatique"], "en": ["No raise", "Raise", "Auto decision"]}
    for _ in range(2):  # the page's language, then the other
        lang = c.js("document.documentElement.lang")
        shown = c.js("(() => { const posts = []; const was = window.fetch; window.fetch = (u, o) => { if (!o || "
                     "o.method !== 'POST') return was(u, o); posts.push(u); return Promise.resolve({ok: false}); }; "
                     "S.frame = %s; draw(); "
                     "const keys = [...document.querySelectorAll('.cards-decide button')]; keys[1].click(); keys[2].click(); "
                     "document.querySelector('.tw').click(); window.fetch = was; "
                     "return [[...document.querySelectorAll('.tw')].map(e => [e.dataset.key, e.textContent]), "
                     "[...document.querySelectorAll('.card')].map(e => e.querySelector('.face').textContent), "
                     "keys.map(e => e.textContent), document.querySelector('.cards-help').textContent, posts]; })()"
                     % waiting)
        # games/models/red-dog-97.json: the stake wager is "wager", named Mise / Wager
        assert shown == [[["wager", {"fr": "Mise", "en": "Wager"}[lang] + " · 2"]], ["3\u2663", "J\u2666"], words[lang],
                         {"fr": "Votre décision :", "en": "Your decision:"}[lang],
                         ["/press/hold2", "/press/auto", "/press/wager/0"]]
        c.js("window.drawFrame = draw; draw = () => { S.frame = %s; drawFrame(); }; draw()" % waiting)
        try:
            shot(c, f"cards-{lang}.png")
        finally:
            c.js("draw = window.drawFrame")
        switch_lang(c)
        c.wait(lambda: c.js("document.documentElement.lang") != lang, "the other language")
    over = waiting.replace("state: 'hold'", "state: 'credit'").replace("['3c', 'Jd']", "['3c', 'Jd', '8h']") \
        .replace("decide: ['1 no raise', '2 raise']", "decide: null")
    shown = c.js("S.frame = %s; draw(); [document.querySelectorAll('.card').length, "
                 "document.querySelectorAll('.cards-decide button').length]" % over)
    assert shown == [3, 0]  # the round over: the three cards, no decision key
    # Crazy Four Poker's hand on aces up (s. 67.81): its layout's stake wagers, and 1 x and 3 x the ante
    # in the player's words (games/models/crazy-four-92.json names the wagers)
    four = ("{state: 'hold', credits: 3, cents: 25, id: 'crazy-four-92', reels: [['As', 'Ad', 'Ah', '7c', '2d']], "
            "table: {stake: {ante: 1, queens_up: 1}, table: null, takes: 6, "
            "decide: ['1 fold', '2 play 1 x', '3 play 3 x']}}")
    c.js("S.frame = %s; draw()" % four)
    c.wait(lambda: c.js("!!(S.models['crazy-four-92'] && S.models['crazy-four-92'].cards)"), "crazy-four-92's page")
    # the ante's credit places two, with the Super Bonus (s. 67.79): "× 2" on the stake's line
    words = {"fr": [["Mise initiale · 1", "Dames ou mieux · 1"], ["Abandonner", "Jouer 1 fois la mise initiale",
                                                                 "Jouer 3 fois la mise initiale"],
                    "Mise initiale 1 \u00d7 2, Dames ou mieux 1"],
             "en": [["Ante · 1", "Queens Up · 1"], ["Fold", "Play 1 x the ante", "Play 3 x the ante"],
                    "Ante 1 \u00d7 2, Queens Up 1"]}
    for _ in range(2):
        lang = c.js("document.documentElement.lang")
        shown = c.js("S.frame = %s; draw(); [[...document.querySelectorAll('.tw')].map(e => e.textContent), "
                     "[...document.querySelectorAll('.cards-decide .decide')].map(e => e.textContent), "
                     "document.querySelector('.table-stake-list').textContent]" % four)
        assert shown == words[lang], (lang, shown)
        switch_lang(c)
        c.wait(lambda: c.js("document.documentElement.lang") != lang, "the other language")


def test_a_dead_link_is_said_and_the_buttons_refused(rig, page: Chromium) -> None:
    cab, server = rig
    c = page
    lang = c.js("document.documentElement.lang")
    cab.power_cut()  # the panel link closes: no frame will come
    lost = {"fr": "Liaison avec l'appareil perdue", "en": "Link to the machine lost"}[lang]
    c.wait(lambda: text(c, "#message") == lost, "the link lost")
    assert c.js("[...document.querySelectorAll('[data-press]')].every(b => b.disabled)")
    status, body = get(server.url + "press/play", "POST")  # a press that reaches the server anyway
    assert status == 503 and body.startswith(b"cabinet not ready")


# --- keno: the card from the firmware's own frames ---------------------------------------------------
KENO = "keno-classique-92"


def model_spots(model: dict) -> list[int]:
    """The spot counts a keno model offers: the keys of its pays (docs/game-format.md)."""
    return sorted(int(k) for k in model["pays"])


def test_keno_board_spots_draw_and_pays_in_both_languages(tmp_path_factory, page: Chromium) -> None:
    """A keno cabinet's frames (firmware/play_keno.py: the card in "reels" as picks, drawn, hits)
    drawn as the 80-number board with the player's spots, the numbers drawn, the spots caught and
    the pay table for that spot count, in French and in English. Runs last: the page leaves the
    reel cabinet (whose link the test before cut) for a keno one. The board is touched on the page:
    numbers marked and unmarked, cleared, quick-picked (issue 23.13)."""
    model = json.loads((ROOT / "games" / "models" / f"{KENO}.json").read_text(encoding="utf-8"))
    cab = EmulatedCabinet(tmp_path_factory.mktemp("keno-screen"), extra_args=["--games", KENO]).boot(login=False)
    server = ScreenServer(cab.ports["panel"], lambda what: act(cab, what))
    c = page
    try:
        c.js("localStorage.setItem('jeton-lang', 'fr')")
        c.open(server.url)
        c.wait(lambda: c.js("document.querySelectorAll('.kn').length") == 80, "the keno board")
        for _ in range(2):
            cab.insert_token()  # 8 credits: one game at bet 5
        assert cab.panel
        # issue 23.13: the board is touched on the page: what it says can be done, can be done
        assert text(c, ".keno-help") == "Touchez de 1 à 10 numéros sur la grille, ou un nombre de numéros au hasard ci-dessous"
        assert c.js("[...document.querySelectorAll('.keno-keys .quick')].map(e => +e.dataset.spots)") == model_spots(model)
        shown = "[...document.querySelectorAll('.kn.pick')].map(e => +e.dataset.n)"
        for n, card in ((17, [17]), (42, [17, 42]), (17, [42])):  # a number touched marks it, again unmarks it
            c.click('.kn[data-n="%d"]' % n)  # the firmware's card (its frame), then the page's
            cab.panel.wait_for(lambda s: (s.get("reels") or {}).get("picks") == card)
            c.wait(lambda: c.js(shown) == card, "the card %s" % card)
        c.click(".keno-keys .clear")
        cab.panel.wait_for(lambda s: (s.get("reels") or {}).get("picks") == [])
        c.click('.keno-keys .quick[data-spots="5"]')  # a quick pick of 5 spots: the firmware's rng picks them
        picks = cab.panel.wait_for(lambda s: len((s.get("reels") or {}).get("picks") or []) == 5)["reels"]["picks"]
        c.wait(lambda: c.js(shown) == picks, "the card")
        assert text(c, ".keno-spots") == "Numéros choisis : 5"
        # the pay table for 5 spots, from the model file: pays["5"][caught] at the unit bet, times bet / unit
        want = [[str(h)] + [str(model["pays"]["5"][str(h)] * b // model["unit"]) for b in model["bets"]]
                for h in (5, 4, 3)]
        pays = PAY_ROWS % "'.keno-pays tbody tr'"
        assert c.js(pays) == want
        assert c.js(PAY_DOLLARS % "'.keno-pays tbody tr'")[0] == [dollars(int(v), "fr") for v in want[0][1:]]
        assert text(c, ".keno-pays caption") == "Gains pour 5 numéros choisis, selon la mise"
        frame = cab.play()
        frame = cab.panel.wait_for(lambda s: s.get("games") == 1 and s.get("state") != "spin")
        drawn, hits = frame["reels"]["drawn"], frame["reels"]["hits"]
        assert len(drawn) == 20 and sorted(hits) == sorted(set(picks) & set(drawn))
        c.wait(lambda: text(c, "#games") == "1" and c.js("document.querySelectorAll('.kn.drawn').length") == 20,
               "the draw")
        shown = c.js("['drawn', 'hit'].map(k => [...document.querySelectorAll('.kn.' + k)].map(e => +e.dataset.n))")
        assert shown == [sorted(drawn), sorted(hits)]
        assert text(c, ".keno-hits") == "Numéros atteints : %d sur 5" % len(hits)
        won = c.js("[...document.querySelectorAll('.keno-pays tr.won')].map(r => r.dataset.caught)")
        assert won == ([str(len(hits))] if len(hits) >= 3 else [])
        fr = shot(c, "keno-fr.png")
        switch_lang(c)
        c.wait(lambda: c.js("document.documentElement.lang") == "en", "English")
        assert text(c, ".keno-spots") == "Spots picked: 5" and text(c, ".keno-hits") == "Spots caught: %d of 5" % len(hits)
        assert text(c, ".keno-pays caption") == "Pays for 5 spots, by bet" and c.js(pays) == want
        assert c.js(PAY_HEAD % "'.keno-pays thead th'") == ["Caught"] + ["Bet %d" % b for b in model["bets"]]
        rows = c.js(PAY_ROWS % "'#pays tbody tr'")
        assert ["5 spots, 5 caught", "3000", "6000", "9000", "12000", "15000"] in rows  # English rows: "WHAT: v"
        assert ["1 spot, 1 caught", "19", "38", "57", "76", "95"] in rows  # one spot: singular
        assert "Bet: 5, 10, 15, 20, 25 credits" in c.js("[...document.querySelectorAll('#rules li')].map(e => e.textContent)")
        en = shot(c, "keno-en.png")
        assert colours(fr) > 100 and fr.tobytes() != en.tobytes()
    finally:
        server.close()
        cab.shutdown()


def test_a_vlt_whose_game_is_over_the_limits_says_why_in_player_words(tmp_path_factory, page: Chromium) -> None:
    """Issue 23.15: a vlt cabinet offered only trefle-90 (bets up to 25 credits: $6.25 at 25 cents,
    over S-13.1, r. 7, s. 6's $2.50) said 'jeu non certifié'. It says why play is stopped, with
    the profile's figures, French first; the technician's line keeps the rule."""
    from sim.cabinet import firmware_args

    cab = EmulatedCabinet(tmp_path_factory.mktemp("vlt-screen"),
                          extra_args=firmware_args("trefle-90", "emulated", "vlt")).boot()  # its system sets a validation id
    server = ScreenServer(cab.ports["panel"], lambda what: act(cab, what))
    c = page
    try:
        c.js("localStorage.setItem('jeton-lang', 'fr')")
        c.open(server.url)
        assert cab.panel
        s = cab.panel.wait_for(lambda s: s.get("state") == "tilt")
        assert "vlt maximum bet: $6.25 above $2.50" in s["msg"], s
        c.wait(lambda: text(c, "#message") == "Hors service : aucun jeu offert ne respecte les limites permises sur cet appareil "
               "(mise d'au plus 2,50 $, lot d'au plus 1\u00a0000,00 $). Appelez un préposé", "the limits in French")
        assert c.js("document.getElementById('message').classList.contains('fault')")
        shot(c, "vlt-limits-fr.png")
        switch_lang(c)
        c.wait(lambda: text(c, "#message") == "Out of service: no game offered is within the limits allowed on this machine "
               "(bet at most $2.50, prize at most $1,000.00). Call an attendant", "the limits in English")
    finally:
        server.close()
        cab.shutdown()


def test_a_poker_hand_on_the_real_firmware_deal_hold_draw(tmp_path_factory, page: Chromium) -> None:
    """Issue 23.14 on a jacks-98 cabinet, with the page's own buttons: the play button says Donner,
    deals; a card touched is held (GARDÉE under it, the firmware's frame agrees); the button says
    Tirer and draws; then no card is marked held any more and the button says Donner again."""
    cab = EmulatedCabinet(tmp_path_factory.mktemp("poker-screen"), extra_args=["--games", "jacks-98"]).boot(login=False)
    server = ScreenServer(cab.ports["panel"], lambda what: act(cab, what))
    c = page
    try:
        c.js("localStorage.setItem('jeton-lang', 'fr')")
        c.open(server.url)
        assert cab.panel
        cab.insert_token()  # 4 credits: a hand at bet 1
        c.wait(lambda: text(c, "#b-play") == "Donner" and text(c, "#credits") == "4", "Donner")
        c.click("#b-play")
        s = cab.panel.wait_for(lambda s: (s.get("hand") or {}).get("open"))
        c.wait(lambda: text(c, "#b-play") == "Tirer" and c.js("document.querySelectorAll('button.card').length") == 5,
               "the hand dealt")
        c.click(".card:nth-child(2)")  # the hold key under the second card
        cab.panel.wait_for(lambda s: (s.get("hand") or {}).get("held") == [0, 1, 0, 0, 0])
        c.wait(lambda: c.js("[...document.querySelectorAll('.card .flag')].map(e => e.textContent)") ==
               ["", "GARDÉE", "", "", ""], "the card held")
        kept = s["reels"][0][1]
        c.click("#b-play")
        s = cab.panel.wait_for(lambda s: not (s.get("hand") or {}).get("open") and s.get("state") not in ("spin", "hold"))
        assert s["reels"][0][1] == kept and s["hand"]["held"] == [0, 1, 0, 0, 0]  # the frame still says which was kept
        c.wait(lambda: text(c, "#games") == "1" and text(c, "#b-play") == "Donner", "the hand drawn")
        assert c.js("[...document.querySelectorAll('.card .flag')].map(e => e.textContent)") == [""] * 5
        assert c.js("document.querySelectorAll('.card.held, button.card').length") == 0
        shot(c, "poker-drawn-fr.png")
    finally:
        server.close()
        cab.shutdown()


def test_a_table_game_layout_stake_and_round_in_both_languages(tmp_path_factory, page: Chromium) -> None:
    """Issue 26: a roulette cabinet's frames (firmware/play_table.py: the stake and the table in
    "table", the round's draw and results in "reels") drawn as the layout's keys, the player's
    wagers and each wager's result, with the rules and pays of every wager (games/table_text.py)
    before play, in French and in English. A key touched on the page places the wager on the
    firmware's layout; play settles it."""
    game = "roulette-simple-97"
    model = json.loads((ROOT / "games" / "models" / f"{game}.json").read_text(encoding="utf-8"))
    from sim.replay import load_game

    layout = load_game(str(ROOT / "games" / "models" / f"{game}.json")).layout()
    cab = EmulatedCabinet(tmp_path_factory.mktemp("table-screen"), extra_args=["--games", game]).boot(login=False)
    server = ScreenServer(cab.ports["panel"], lambda what: act(cab, what))
    c = page
    try:
        c.js("localStorage.setItem('jeton-lang', 'fr')")
        c.open(server.url)
        c.wait(lambda: c.js("document.querySelectorAll('.tw').length") == len(layout), "the layout")
        assert text(c, ".table-help") == TEXT["fr"]["ui"]["table_help"]
        rules = c.js("[...document.querySelectorAll('#rules li')].map(e => e.textContent)")
        assert any(line.strip().startswith(model["wagers"]["red"]["name"]["fr"] + " :") for line in rules), rules
        cab.insert_token()
        c.click('.tw[data-key="red"]')  # a touch: red at its first bet level, on the firmware's layout
        cab.panel.wait_for(lambda s: (s.get("table") or {}).get("stake") == {"red": 1})
        c.wait(lambda: c.js("[...document.querySelectorAll('.tw.staked')].map(e => e.dataset.key)") == ["red"], "red")
        assert text(c, ".table-stake") == "Vos mises : 1 crédit" and text(c, ".table-stake-list") == "Rouge 1"
        cab.play()
        frame = cab.panel.wait_for(lambda s: s.get("games") == 1 and s.get("state") != "spin")
        status = frame["reels"]["results"][0][2]
        c.wait(lambda: c.js("document.querySelectorAll('.table-results li').length") == 1, "the round")
        want = TEXT["fr"]["table"][status]
        assert text(c, ".table-results li").startswith("Rouge 1 : " + want), text(c, ".table-results li")
        pocket, colour = frame["reels"]["table"]["pocket"], frame["reels"]["table"]["colour"]
        assert text(c, ".table-drawn") == "Résultat : Couleur %s · Numéro %s" % (TEXT["fr"]["drawn"][colour], pocket)
        fr = shot(c, "table-fr.png")
        switch_lang(c)
        c.wait(lambda: c.js("document.documentElement.lang") == "en", "English")
        assert text(c, ".table-help") == TEXT["en"]["ui"]["table_help"]
        assert text(c, ".table-results li").startswith("Red 1: " + TEXT["en"]["table"][status])
        assert text(c, ".table-drawn") == "Result: Colour %s · Pocket %s" % (colour, pocket)
        rules = c.js("[...document.querySelectorAll('#rules li')].map(e => e.textContent)")
        assert any(line.strip().startswith("Red: 1 to 1") for line in rules), rules
        en = shot(c, "table-en.png")
        assert colours(fr) > 100 and fr.tobytes() != en.tobytes()
    finally:
        server.close()
        cab.shutdown()
