# Keno on the real Cabinet over a fake board (issue 13): the card from the touch screen, a quick pick,
# a card that cannot be played refused before anything is committed, the card committed with the
# wager, the numbers drawn committed with the outcome in recall, and a power cut after the wager
# that completes the game on the committed card.
# mp-heap: 640K  (as test_firmware_cabinet.py: the firmware, a 68 KB NVRAM image in RAM, sources compiled)
import gc
import json

from fakes_cabinet import Acceptor, Board, make_cabinet
from fakes_firmware import RamNvram, memory, wiped

import rng
from board.touch import TouchQueue
from firmware.ledger import Ledger
from games.keno import load

MODEL = "games/models/keno-classique-92.json"
NVRAM = RamNvram(69632)


def cabinet(nv=None, game=None):
    gc.collect()
    board = Board(nv or wiped(NVRAM))
    board.touch = TouchQueue()
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = make_cabinet(board, led, game or load(MODEL), rng.open_generator(rng.open_source("emulated")), acc)
    cab.resume()
    cab.step(0)
    return cab, board, acc


def steps(cab, n=30):
    for _ in range(n):
        cab.step(10)


def coins(cab, acc, n):
    for _ in range(n):
        acc.push("coin", 1, 1)
    steps(cab, 12)


def press(board, cab, name):
    board.pins[name].value(1)
    steps(cab, 6)
    board.pins[name].value(0)
    steps(cab, 8)


def touch(board, cab, word, n=0):
    board.touch.put(word, n)
    steps(cab, 1)


def test_card_from_the_touch_screen():
    cab, board, acc = cabinet()
    for n in (17, 3, 80, 3):  # 3 twice: marked, then unmarked
        touch(board, cab, "spot", n)
    assert cab.gameplay.picks() == [17, 80]
    assert board.display.screen["reels"] == {"picks": [17, 80], "drawn": [], "hits": []}
    touch(board, cab, "spot", 81)
    assert cab.screen.message == ("no_number", 81) and cab.gameplay.picks() == [17, 80]
    for n in range(1, 12):
        touch(board, cab, "spot", n)
    assert len(cab.gameplay.picks()) == 10 and cab.screen.message == ("max_spots", 10)
    touch(board, cab, "clear")
    assert cab.gameplay.picks() == []
    touch(board, cab, "quick", 7)
    p = cab.gameplay.picks()
    assert len(p) == 7 and len(set(p)) == 7 and p == sorted(p) and all(1 <= x <= 80 for x in p)
    touch(board, cab, "quick", 11)
    assert cab.screen.message == ("spots_not_offered", 11) and cab.gameplay.picks() == p


def test_a_card_that_cannot_be_played_commits_nothing():
    cab, board, acc = cabinet()
    coins(cab, acc, 10)
    m0 = dict(cab.ledger.meters)
    c0 = cab.ledger.credits
    press(board, cab, "play")
    assert cab.screen.message == ("no_spots",)
    assert cab.ledger.meters == m0 and cab.ledger.game is None and cab.ledger.credits == c0 > 0


def test_card_committed_with_the_wager_and_draw_with_the_outcome():
    cab, board, acc = cabinet()
    coins(cab, acc, 10)
    c0 = cab.ledger.credits
    for n in (5, 10, 15, 20, 25, 30):
        touch(board, cab, "spot", n)
    played = 0
    for _ in range(4):
        press(board, cab, "play")
        played += 1
        steps(cab, 150)  # past the reels' SPIN_MS: the award is concluded
    led = cab.ledger
    assert led.meters["games_played"] == played and led.meters["coin_in"] == 5 * played
    games = led.recall()
    assert len(games) == played
    with open(MODEL) as f:
        pays = json.load(f)["pays"]["6"]
    for rec in games:
        draws = rec["draws"]
        assert draws[:6] == [5, 10, 15, 20, 25, 30] and len(draws) == 26 and len(set(draws[6:])) == 20
        caught = len([p for p in draws[:6] if p in draws[6:]])
        assert rec["win"] == pays.get(str(caught), 0) * rec["bet"] // 5, rec
        assert rec["after"] == rec["before"] - rec["bet"] + rec["win"]
    assert led.credits == c0 - 5 * played + sum(r["win"] for r in games)
    # the card is in the committed state block, not only in RAM
    assert json.loads(led.mem.read("state"))["picks"] == [5, 10, 15, 20, 25, 30]


def test_power_cut_after_the_wager_completes_on_the_committed_card():
    cab, board, acc = cabinet()
    coins(cab, acc, 10)
    touch(board, cab, "quick", 4)
    card = cab.gameplay.picks()
    cab.ledger.wager(5, None, cab.game.id)  # committed; the power goes before the draw
    cab.ledger.st["picks"] = [1, 2]  # what RAM held is gone with the power: only the commit counts
    nv = board.nvram
    cab2, board2, _ = cabinet(nv=nv)
    led = cab2.ledger
    assert led.game["phase"] == "done"
    rec = led.recall()[-1]
    assert rec["draws"][:4] == card and rec["bet"] == 5
    assert led.meters["games_played"] == 1 and led.meters["refunds"] == 0
    assert cab2.screen.reels["picks"] == card and len(cab2.screen.reels["drawn"]) == 20


def test_touch_is_ignored_during_a_game_and_on_a_reel_game():
    from games import load as load_reels

    cab, board, acc = cabinet(game=load_reels("games/models/sept-royal-87.json"))
    touch(board, cab, "spot", 5)
    assert cab.ledger.st.get("picks") is None
    cab, board, acc = cabinet()
    coins(cab, acc, 10)
    touch(board, cab, "spot", 9)
    press(board, cab, "play")  # the reels turn (SPIN_MS): no state to take a card in
    board.touch.put("spot", 44)
    cab.step(0)
    assert cab.gameplay.picks() == [9]


def test_card_touches_are_events_of_the_state_table():
    # spot, quick and clear are taken in idle and credit only (firmware/states.py): under the audit
    # key, a door or a tilt the press is refused and changes nothing
    from firmware import states

    cab, board, acc = cabinet()
    coins(cab, acc, 2)
    touch(board, cab, "spot", 9)
    board.pins["door_main"].value(1)
    steps(cab, 8)
    assert cab.state == states.DOOR
    for word, n in (("spot", 3), ("quick", 5), ("clear", 0)):
        touch(board, cab, word, n)
        assert cab.gameplay.picks() == [9], word
    assert cab.handle(states.SPOT, 3) is False and cab.handle(states.CLEAR) is False
    assert cab.gameplay.picks() == [9]
    board.pins["door_main"].value(0)
    steps(cab, 8)
    assert cab.state == states.CREDIT
    assert cab.handle(states.SPOT, 3) and cab.gameplay.picks() == [3, 9]
    assert cab.handle(states.QUICK, 4) and len(cab.gameplay.picks()) == 4
    assert cab.handle(states.CLEAR) and cab.gameplay.picks() == []


def test_audit_test_game_plays_a_card():
    cab, board, acc = cabinet()
    board.pins["key_audit"].value(1)
    steps(cab, 8)
    assert cab.handle("test")
    o = cab.tested
    assert len(o.picks) == 10 and len(o.drawn) == 20  # no card: a quick pick of the most spots
    assert cab.ledger.meters["games_played"] == 0


def test_quick_pick_without_a_working_rng():
    from fakes_cabinet import FailingGen

    from rng import RngFailure

    cab, board, acc = cabinet()
    touch(board, cab, "spot", 12)
    gen = cab.gameplay.gen
    cab.gameplay.use_generator(None)  # no generator at power-up (the rng tilt): no quick pick, the card stays
    touch(board, cab, "quick", 5)
    assert cab.screen.message == ("no_quick_pick",) and cab.gameplay.picks() == [12]
    cab.gameplay.use_generator(FailingGen(RngFailure("repetition", "stuck")))
    touch(board, cab, "quick", 5)
    assert "rng" in cab.tilts and cab.gameplay.picks() == [12]
    cab.gameplay.use_generator(gen)


def test_a_committed_card_the_booted_game_cannot_play_is_refunded():
    cab, board, acc = cabinet()
    coins(cab, acc, 10)
    c0 = cab.ledger.credits
    cab.ledger.st["picks"] = []  # a card no game could play, committed with the wager
    cab.ledger.wager(5, None, cab.game.id)
    cab2, _, _ = cabinet(nv=board.nvram)
    led = cab2.ledger
    assert led.game["phase"] == "void" and led.meters["refunds"] == 5 and led.credits == c0
    assert any("card not playable on keno-classique-92: no spots picked" in e[3] for e in led.events())


def test_recall_in_words_the_card_and_the_numbers():
    # the console's recall (issue 23, item 17): a keno record's draws are the picks then the 20 numbers
    from firmware import console_read

    game = load(MODEL)
    drawn = list(range(3, 23))  # 3 .. 22
    out = []
    console_read.outcome(game, game.evaluate(game.bets[0], [1, 2, 3, 4, 40] + drawn), "en", out)
    assert out == ["picks 1 2 3 4 40", "drawn " + " ".join(str(n) for n in drawn), "caught 2: 3 4"], out
