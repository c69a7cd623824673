"""The player's screen (sim/screen.py, docs/screen.md) in a real headless Chromium (Debian's
`chromium`, `make browser-tools`), driven through the DevTools protocol (tools/headless.py): a
player puts in tokens and plays with the page's buttons on the real firmware until a game wins,
switches the language, cashes out; the DOM and the screenshots are checked in French and in English.
The screenshots are kept for a human under build/screen-render/."""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from firmware import states
from sim.cabinet import act
from sim.harness import EmulatedCabinet
from sim.screen import ScreenServer
from tools import png
from tools.headless import Chromium
from tools.par import browser

ROOT = Path(__file__).resolve().parents[2]
GAME = "trefle-94"  # bet 5, a win in 3 games of 4 (games/certs/trefle-94.json hit_frequency 31463/41847)
MODEL = json.loads((ROOT / "games" / "models" / f"{GAME}.json").read_text(encoding="utf-8"))
TEXT = json.loads((ROOT / "sim" / "screen" / "text.json").read_text(encoding="utf-8"))
SHOTS = ROOT / "build" / "screen-render"
CENTS = 25  # firmware/config.py DENOM_CENTS: a $1 token is 4 credits


def dollars(credits: int, lang: str) -> str:
    c = credits * CENTS
    return "%d,%02d $" % (c // 100, c % 100) if lang == "fr" else "$%d.%02d" % (c // 100, c % 100)


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


def text(c: Chromium, selector: str) -> str:
    return c.js("(document.querySelector(%s) || {}).textContent || ''" % json.dumps(selector))


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


def shot(c: Chromium, name: str) -> png.Image:
    c.js("window.scrollTo(0, 0)")
    data = c.screenshot()
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / name).write_bytes(data)
    return png.read(data)


def box_pixels(c: Chromium, selector: str) -> bytes:
    c.js("window.scrollTo(0, 0)")
    b = c.box(selector)
    img = png.read(c.screenshot({k: round(v) for k, v in b.items()}))
    return img.crop(0, 0, img.width, img.height)


# --- the server alone ------------------------------------------------------------------------------
def test_the_server_passes_the_firmwares_frame_and_refuses_what_it_does_not_serve(rig) -> None:
    cab, server = rig
    assert cab.panel
    status, body = get(server.url + "frame")
    assert status == 200 and json.loads(body) == cab.panel.screen  # the harness's own tap saw the same
    assert get(server.url + "press/lamp_tower", "POST")[0] == 404  # only the player's buttons
    assert get(server.url + "press/key_reset", "POST")[0] == 404  # the attendant's key is not the player's
    assert get(server.url + "model/no-such-game")[0] == 404
    assert get(server.url + "model/..%2F..%2Ffirmware%2Fconfig")[0] == 404
    assert get(server.url + "../firmware/config.py")[0] == 404
    status, body = get(server.url + "model/" + GAME)
    m = json.loads(body)
    assert status == 200 and m["symbols"] == MODEL["symbols"] and m["bets"] == MODEL["bets"]


def test_every_message_state_tilt_and_lock_the_firmware_names_is_in_both_languages() -> None:
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "firmware").glob("*.py"))
    ids = set(re.findall(r'self\.message = \("(\w+)"', src)) | set(re.findall(r'say = [(\[]"(\w+)"', src))
    tilts = set(re.findall(r'set_tilt\("(\w+)"', src)) | set(re.findall(r'set_tilt\("(\w+)" if', src))
    tilts |= set(re.findall(r'else "(\w+)", why\)', src))  # set_tilt("fraud" if ... else "acceptor", why)
    locks = set(re.findall(r'"lock"\] = \{"kind": "(\w+)"', src))
    assert {"insert", "paying", "paid", "entry", "lock", "tilt", "ramerror"} <= ids, ids  # the parse finds them
    assert {"acceptor", "fraud", "hopper", "rng", "game"} <= tilts and {"handpay", "jackpot"} <= locks
    for lang in ("fr", "en"):
        t = TEXT[lang]
        assert ids <= set(t["say"]), (lang, ids - set(t["say"]))
        assert tilts <= set(t["tilt"]), (lang, tilts - set(t["tilt"]))
        assert locks <= set(t["lock"]), (lang, locks - set(t["lock"]))
        assert set(states.STATES) <= set(t["state"]), (lang, set(states.STATES) - set(t["state"]))
    for section in TEXT["fr"]:
        assert set(TEXT["fr"][section]) == set(TEXT["en"][section]), section


# --- a player at the page -----------------------------------------------------------------------------
def test_a_player_plays_to_a_win_in_french_then_reads_it_in_english(rig, page: Chromium) -> None:
    cab, _ = rig
    c = page
    assert c.js("document.documentElement.lang") == "fr"  # French first
    # the pay table for every bet: a known row from the certified model (pays HARP "3": [200, 400, 1500])
    assert c.js("[...document.querySelectorAll('#pays thead th')].map(e => e.textContent)") == \
        ["Gain", "Mise 5", "Mise 10", "Mise 25"]
    rows = c.js("[...document.querySelectorAll('#pays tbody tr')].map(r => [...r.cells].map(e => e.textContent))")
    assert ["3 x Harpe", "200", "400", "1500"] in rows and len(rows) == 8  # 6 line pays, 2 scatter pays
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
    assert text(c, "#win") == str(win) and c.js("document.getElementById('m-win').classList.contains('won')")
    assert text(c, "#win-dollars") == dollars(win, "fr") and text(c, "#credits-dollars") == dollars(credits, "fr")
    assert text(c, "#message") == "Gagné : %d crédits (%s)" % (win, dollars(win, "fr"))
    assert [text(c, "#b-" + b) for b in ("bet", "max", "play", "cashout", "lang")] == \
        ["Mise +", "Mise max", "Jouer", "Encaisser", "English"]
    fr = shot(c, "fr.png")
    fr_labels, fr_glyph = box_pixels(c, "#buttons"), box_pixels(c, ".sym svg")

    c.click("#b-lang")
    c.wait(lambda: c.js("document.documentElement.lang") == "en", "English")
    assert [text(c, "#b-" + b) for b in ("bet", "max", "play", "cashout", "lang")] == \
        ["Bet one", "Max bet", "Play", "Cash out", "Français"]
    assert text(c, "#message") == "You won %d credits (%s)" % (win, dollars(win, "en"))
    assert text(c, "#credits-dollars") == dollars(credits, "en")
    for code, name in cells(c):
        assert name == MODEL["symbols"][code]["en"], (code, name)
    assert ["3 x Harp", "200", "400", "1500"] in c.js(
        "[...document.querySelectorAll('#pays tbody tr')].map(r => [...r.cells].map(e => e.textContent))")
    en = shot(c, "en.png")
    en_labels, en_glyph = box_pixels(c, "#buttons"), box_pixels(c, ".sym svg")

    for img in (fr, en):  # drawn, not blank: the page's own colours where CSS puts them
        assert (img.width, img.height) == (1100, 900)
        assert img.colours() > 100
        assert img.pixel(img.width - 3, img.height // 2) == (0x10, 0x23, 0x3F)  # body background
        assert img.pixel(3, 3) == (0x0A, 0x18, 0x30)  # the header
    assert fr.crop(0, 0, fr.width, fr.height) != en.crop(0, 0, en.width, en.height)
    assert fr_labels != en_labels  # where the words are, the two languages differ ...
    assert fr_glyph == en_glyph  # ... and a reel symbol's drawing is the same in both


def test_cash_out_and_a_tilt_are_said_in_the_players_language(rig, page: Chromium) -> None:
    cab, _ = rig
    assert cab.panel
    c = page
    if c.js("document.documentElement.lang") != "en":
        c.click("#b-lang")
    c.click("#b-cashout")
    s = cab.panel.wait_for(lambda s: s.get("credits") == 0 or s.get("state") == "handpay", 20)
    say = s["say"]
    c.wait(lambda: text(c, "#credits") == str(s["credits"]) and text(c, "#state") == TEXT["en"]["state"][s["state"]],
           "the cash-out")
    if say[0] == "lock":  # less than a token left: the attendant pays it by hand
        assert text(c, "#message") == "Hand pay: %d credits. Call an attendant" % say[2]
        cab.attendant_key()
        s = cab.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") != "handpay")
    assert s["say"][0] == "paid"
    c.wait(lambda: text(c, "#message") == "Paid: %d credits" % s["say"][1], "paid")
    c.click("#b-lang")
    c.wait(lambda: text(c, "#message") == "Payé : %d crédits" % s["say"][1], "payé")

    cab.panel.tap.send_line("entropy stuck")  # the noise source dies: the RNG's health tests trip
    s = cab.panel.wait_for(lambda s: s.get("state") == "tilt")
    assert s["say"] == ["tilt", "rng"] and "rng:" in s["msg"]  # the technician keeps the reason
    c.wait(lambda: text(c, "#message") == "Hors service : générateur de nombres aléatoires. Appelez un préposé",
           "the tilt in French")
    assert c.js("document.getElementById('message').classList.contains('fault')")
    c.click("#b-lang")
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
        royal = c.js("[...document.querySelector('#pays tbody tr').children].map(e => e.textContent)")
        assert royal == [{"fr": "Quinte flush royale", "en": "Royal flush"}[lang], "250", "500", "750", "1000", "4000"]
        shot(c, f"poker-{lang}.png")
    finally:
        c.js("draw = window.drawFrame; draw()")
    drawn = c.js("S.frame = %s; draw(); [[...document.querySelectorAll('.card')].map(e => e.tagName), "
                 "!!document.getElementById('b-auto')]" % frame.replace("open: true", "open: false"))
    assert drawn == [["DIV"] * 5, False]  # drawn: no hold key any more

    # the server takes the hold keys as the touch screen's (this reel cabinet ignores them)
    assert get(server.url + "press/hold2", "POST") == (200, b"touched hold 2\n")
    assert get(server.url + "press/auto", "POST") == (200, b"touched auto\n")
    assert get(server.url + "press/hold6", "POST")[0] == 404


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


def test_keno_board_spots_draw_and_pays_in_both_languages(tmp_path_factory, page: Chromium) -> None:
    """A keno cabinet's frames (firmware/play_keno.py: the card in "reels" as picks, drawn, hits)
    drawn as the 80-number board with the player's spots, the numbers drawn, the spots caught and
    the pay table for that spot count, in French and in English. Runs last: the page leaves the
    reel cabinet (whose link the test before cut) for a keno one."""
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
        picks = cab.quick_pick(5)
        c.wait(lambda: c.js("[...document.querySelectorAll('.kn.pick')].map(e => +e.dataset.n)") == picks, "the card")
        assert text(c, ".keno-spots") == "Numéros choisis : 5"
        # the pay table for 5 spots, from the model file: pays["5"][caught] at the unit bet, times bet / unit
        want = [[str(h)] + [str(model["pays"]["5"][str(h)] * b // model["unit"]) for b in model["bets"]]
                for h in (5, 4, 3)]
        pays = "[...document.querySelectorAll('.keno-pays tbody tr')].map(r => [...r.cells].map(e => e.textContent))"
        assert c.js(pays) == want
        assert text(c, ".keno-pays caption") == "Gains pour 5 numéros choisis (crédits) selon la mise"
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
        c.click("#b-lang")
        c.wait(lambda: c.js("document.documentElement.lang") == "en", "English")
        assert text(c, ".keno-spots") == "Spots picked: 5" and text(c, ".keno-hits") == "Spots caught: %d of 5" % len(hits)
        assert text(c, ".keno-pays caption") == "Pays for 5 spots (credits) by bet" and c.js(pays) == want
        assert c.js("[...document.querySelectorAll('.keno-pays thead th')].map(e => e.textContent)") == \
            ["Caught"] + ["Bet %d" % b for b in model["bets"]]
        rows = c.js("[...document.querySelectorAll('#pays tbody tr')].map(r => [...r.cells].map(e => e.textContent))")
        assert ["5 spots, 5 caught", "3000", "6000", "9000", "12000", "15000"] in rows  # English rows: "WHAT: v"
        assert "Bet: 5, 10, 15, 20, 25 credits" in c.js("[...document.querySelectorAll('#rules li')].map(e => e.textContent)")
        en = shot(c, "keno-en.png")
        assert fr.colours() > 100 and fr.crop(0, 0, fr.width, fr.height) != en.crop(0, 0, en.width, en.height)
    finally:
        server.close()
        cab.shutdown()
