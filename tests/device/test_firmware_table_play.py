# The table games on the real Cabinet over a fake board (issue 26, firmware/play_table.py): the
# stake built on the layout (touch and console words through the state table), refused before
# anything is committed when it cannot be played, the round's wager, draw and pays committed with
# the recall record that replays it bit for bit, the wagers left standing (craps' point, a roulette
# double) committed with it, and a power cut at every NVRAM write of a round that neither loses nor
# duplicates a credit (test_firmware_table_powercut.py). The pays are checked against the by-law's own (s. 72, s. 95.14-95.15,
# s. 95.24, s. 32-36), written out here, not read from the engine.
# mp-heap: 768K  (as test_firmware_keno.py: the firmware, a 68 KB NVRAM image in RAM, sources compiled)
import gc

from fakes_cabinet import Acceptor, Board, make_cabinet
from fakes_firmware import RamNvram, memory, wiped

import rng
from board.touch import TouchQueue
from firmware import cabinet as _compiled  # noqa: F401  compiled first, before a game's objects split the heap
from firmware import states
from firmware.ledger import Ledger
from firmware.play_table import kept
from firmware.recall import digest
from games.certificate import check
from games.table_game import standing_credits

NVRAM = RamNvram(69632)
# the European layout's red numbers (by-law s. 72(1)(e): "the red numbers"; the standard wheel)
RED = (1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36)


_games = {}  # the last game checked, kept: a boot check per cabinet fragments the heap of a cut loop


def game_of(gid):
    if gid not in _games:
        _games.clear()
        gc.collect()
        ok, why, game = check("games/models/%s.json" % gid, "games/certs/%s.json" % gid, recompute=False)
        assert ok, why
        _games[gid] = game
    return _games[gid]


def cabinet(gid, nv=None, cfg=None):
    gc.collect()
    board = Board(nv or wiped(NVRAM))
    board.touch = TouchQueue()
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = make_cabinet(board, led, game_of(gid), rng.open_generator(rng.open_source("emulated")), acc, cfg=cfg)
    cab.resume()
    cab.step(0)
    return cab, board, acc


def steps(cab, n=30):
    for _ in range(n):
        cab.step(10)


def coins(cab, acc, n):
    cab.ledger.accept(n)  # n credits in (the acceptor's path is the coin tests')
    steps(cab, 2)


def stand(cab, rounds):
    """Rounds of cab's game played on the books with the dice (or pockets) given, as the cabinet plays
    them: each wager committed with its packed stake, then settled with its recall record. What they
    leave standing is the cabinet's table, as a power-up finds it. rounds: [(stake, draws)]."""
    play = cab.gameplay
    led = cab.ledger
    for stake, draws in rounds:
        table = play.table()
        o = cab.game.evaluate(stake, draws, table)
        o.draws = [stake, table, o.draws, standing_credits(o.table)]
        led.wager(o.bet, None, cab.game.id, play._packed(stake))
        led.settle(o, cab.game.id)
        play._table = kept(o.table)
    return play.table()


def put(cab, key, credits):
    assert cab.handle(states.WAGER, key, credits), cab.state
    assert cab.screen.message is None, cab.screen.message


def play(cab):
    assert cab.handle(states.PLAY)
    steps(cab, 150)  # past SPIN_MS: the award is concluded


def replayed(cab, rec):
    o = cab.game.evaluate_round(rec["bet"], rec["draws"])
    assert digest(o) == rec["h"] and o.award == rec["win"]
    return o


def test_a_roulette_round_pays_the_bylaw_and_replays_from_its_record():
    cab, board, acc = cabinet("roulette-simple-97")
    coins(cab, acc, 40)
    c0 = cab.ledger.credits
    lay = cab.game.layout()
    board.touch.put("wager", lay.index("red"))  # a touch: the wager's first level
    steps(cab, 1)
    assert cab.gameplay.stake() == {"red": cab.game.m.bets_of("red")[0]}
    put(cab, "red", 0)  # off again
    put(cab, "straight:17", 2)
    put(cab, "red", 5)
    put(cab, "dozen:2", 1)
    assert board.display.screen["table"]["stake"] == {"straight:17": 2, "red": 5, "dozen:2": 1}
    play(cab)
    led = cab.ledger
    rec = led.recall()[-1]
    stake, table, drawn, left = rec["draws"]
    assert stake == {"straight:17": 2, "red": 5, "dozen:2": 1} and table is None and left == 0 and rec["bet"] == 8
    p = drawn[0]
    want = (72 if p == 17 else 0) + (10 if p in RED else 0) + (3 if 13 <= p <= 24 else 0)  # 35, 1 and 2 to 1
    assert rec["win"] == want, (p, rec)
    assert led.credits == c0 - 8 + want and rec["after"] == led.credits
    assert led.meters["coin_in"] == 8 and led.meters["coin_out"] == want and led.meters["games_played"] == 1
    o = replayed(cab, rec)
    assert o.window["pocket"] == str(p)
    assert cab.gameplay.stake() == stake  # the same stake again for the next round
    assert cab.screen.played["wagers"] == o.results


def test_a_stake_that_cannot_be_played_commits_nothing():
    cab, board, acc = cabinet("roulette-simple-97")
    coins(cab, acc, 3)
    m0 = dict(cab.ledger.meters)
    assert cab.handle(states.PLAY)
    assert cab.screen.message == ("no_wager",)
    for key, credits in (("straight:37", 1), ("split:1-5", 1), ("red", 7), ("pass", 1)):
        assert cab.handle(states.WAGER, key, credits)
        assert isinstance(cab.screen.message, str) and cab.gameplay.stake() == {}, (key, cab.screen.message)
    assert cab.handle(states.WAGER, 999)  # a touch beyond the layout
    assert "no wager 999" in cab.screen.message
    put(cab, "red", 5)
    assert cab.handle(states.PLAY)  # 5 credits on the layout, 3 on the meter
    assert cab.screen.message == ("insert",)
    assert cab.ledger.meters == m0 and cab.ledger.game is None and cab.ledger.credits == 3


def test_the_layout_is_taken_in_idle_and_credit_only():
    cab, board, acc = cabinet("sicbo-83")
    coins(cab, acc, 2)
    board.pins["door_main"].value(1)
    steps(cab, 8)
    assert cab.state == states.DOOR
    assert cab.handle(states.WAGER, "small", 1) is False and cab.gameplay.stake() == {}
    board.pins["door_main"].value(0)
    steps(cab, 8)
    put(cab, "small", 1)
    assert cab.handle(states.CLEAR) and cab.gameplay.stake() == {}


def test_a_sicbo_wheel_and_baccarat_round_each_settle_at_the_bylaw_pays():
    for gid, key, credits in (("sicbo-83", "small", 2), ("roue-fortune-85", "1", 1), ("baccarat-mini-85", "player", 2)):
        cab, _, acc = cabinet(gid)
        coins(cab, acc, 20)
        put(cab, key, credits)
        for _ in range(3):
            play(cab)
        led = cab.ledger
        games = led.recall()
        assert len(games) == 3 and led.meters["coin_in"] == 3 * credits
        for rec in games:
            o = replayed(cab, rec)
            drawn = rec["draws"][2]
            if gid == "sicbo-83":  # small: 4-10, not a triple, 1 to 1 (s. 95.24)
                t = sum(drawn)
                small = 4 <= t <= 10 and not (drawn[0] == drawn[1] == drawn[2])
                assert rec["win"] == (2 * credits if small else 0), rec
            elif gid == "roue-fortune-85":
                assert rec["win"] == (2 * credits if o.window["symbol"] == "1" else 0), rec  # 1 to 1
            else:  # player 1 to 1, a tie returns it (s. 36)
                w = o.window
                assert rec["win"] in (0, credits, 2 * credits), rec
                assert set(w) >= {"player", "banker"}
        assert led.credits == 20 - 3 * credits + sum(r["win"] for r in games)
        cab = acc = None


def test_craps_wagers_stand_between_rolls_and_a_roll_may_stake_nothing_new():
    cab, board, acc = cabinet("craps-83")
    coins(cab, acc, 50)
    assert cab.handle(states.WAGER, "field", 1)
    put(cab, "pass", 2)
    led = cab.ledger
    rolls = 0
    while rolls < 40:
        play(cab)
        rolls += 1
        t = cab.gameplay.table()
        if t and t["point"]:
            break
    assert t["point"] in (4, 5, 6, 8, 9, 10) and t["bets"] == {"pass%d" % t["point"]: 2}, t
    assert cab.gameplay.stake() == {"field": 1}  # pass cannot be placed while the point is on
    cab.handle(states.CLEAR)
    spent = led.meters["coin_in"]
    play(cab)  # the point rolls for the pass wager alone: nothing new staked
    rec = led.recall()[-1]
    assert rec["bet"] == 0 and rec["draws"][0] == {} and rec["draws"][1] == t and led.meters["coin_in"] == spent
    o = replayed(cab, rec)
    total = sum(rec["draws"][2])
    if total == t["point"]:
        assert rec["win"] == 4 and cab.gameplay.table() is None  # the pass wager won 1 to 1 (s. 95.14(1))
    elif total == 7:
        assert rec["win"] == 0 and cab.gameplay.table() is None
    else:
        assert rec["win"] == 0 and cab.gameplay.table() == t
    assert o.table == (cab.gameplay.table() or {"point": 0, "bets": {}})
    assert rec["draws"][3] == (2 if cab.gameplay.table() else 0)  # the credits it leaves standing


def test_standing_wagers_of_another_game_are_refunded_at_power_up():
    cab, board, acc = cabinet("craps-83")
    led = cab.ledger
    led.accept(30)
    # a pass line on 6 (3-3), then its odds (a 3 rolled: neither 6 nor 7)
    assert stand(cab, [({"pass": 5}, [3, 3]), ({"odds6:pass": 10}, [1, 2])]) == \
        {"point": 6, "bets": {"pass6": 5, "odds6:pass": 10}}
    nv = board.nvram
    cab = board = acc = led = None
    cab, board, acc = cabinet("craps-83", nv=nv)  # the same game: they stand as they were
    assert cab.gameplay.table() == {"point": 6, "bets": {"pass6": 5, "odds6:pass": 10}}
    assert cab.ledger.meters["refunds"] == 0
    cab = board = acc = None
    cab, board, acc = cabinet("roulette-simple-97", nv=nv)  # another game: refunded once
    led = cab.ledger
    assert led.credits == 30 - 15 + 15 and led.meters["refunds"] == 15 and cab.gameplay.table() is None
    led.audit()
    assert "standing wagers" in led.events()[-1][3]
    cab = board = acc = led = None
    cab, board, acc = cabinet("roulette-simple-97", nv=nv)
    assert cab.ledger.meters["refunds"] == 15  # not twice


def test_standing_wagers_are_refunded_when_a_reel_game_is_booted():
    from games import load as load_reels

    cab, board, _ = cabinet("craps-83")
    cab.ledger.accept(10)
    stand(cab, [({"pass": 5}, [4, 4])])
    nv = board.nvram
    cab = board = None
    gc.collect()
    board = Board(nv)
    led = Ledger(memory(board.nvram))
    led.open()
    cab = make_cabinet(board, led, load_reels("games/models/sept-royal-87.json"),
                       rng.open_generator(rng.open_source("emulated")), Acceptor())
    cab.resume()
    assert led.credits == 10 and led.meters["refunds"] == 5
    led.audit()


def test_a_power_cut_after_the_wager_completes_the_round_on_the_committed_stake():
    cab, board, acc = cabinet("roulette-simple-97")
    coins(cab, acc, 10)
    put(cab, "black", 5)
    cab.ledger.wager(5, None, cab.game.id, cab.gameplay._packed({"black": 5}))  # committed; the power goes
    cab.gameplay._stake = {"red": 1}  # what RAM held is gone with the power: only the commit counts
    nv = board.nvram
    cab = board = acc = None
    cab, board, acc = cabinet("roulette-simple-97", nv=nv)
    led = cab.ledger
    assert led.game["phase"] == "done" and led.meters["games_played"] == 1 and led.meters["refunds"] == 0
    rec = led.recall()[-1]
    assert rec["draws"][0] == {"black": 5} and rec["bet"] == 5
    replayed(cab, rec)
    assert led.credits == 5 + rec["win"]


def test_a_round_over_the_vlt_maximum_bet_is_refused_as_it_is_placed():
    from firmware.config import Config

    cfg = Config()
    cfg.JURISDICTION = "vlt"
    cfg.DENOM_CENTS = 25
    cab, board, acc = cabinet("baccarat-mini-85", cfg=cfg)
    coins(cab, acc, 30)
    put(cab, "player", 10)  # 10 x 25 cents: the $2.50 of r. 7, s. 6
    assert cab.handle(states.WAGER, "tie", 1)
    assert cab.screen.message == ("bet_refused",) and cab.gameplay.stake() == {"player": 10}


def test_a_round_holds_at_most_max_keys_wagers():
    # firmware/table_bounds.py MAX_KEYS, standing ones included: the packed stake and the recall
    # record always fit; a wager past it is refused with the reason, nothing else changes
    from firmware.table_bounds import MAX_KEYS

    cab, board, acc = cabinet("roulette-simple-97")
    coins(cab, acc, 40)
    for p in range(MAX_KEYS):
        put(cab, "straight:%d" % p, 1)
    assert cab.handle(states.WAGER, "straight:%d" % MAX_KEYS, 1)
    assert cab.screen.message == "at most %d wagers a round, standing ones included" % MAX_KEYS
    assert len(cab.gameplay.stake()) == MAX_KEYS
    play(cab)
    rec = cab.ledger.recall()[-1]
    assert len(rec["draws"][0]) == MAX_KEYS and rec["bet"] == MAX_KEYS
    replayed(cab, rec)


def test_an_rng_failure_voids_the_round_and_leaves_the_standing_wagers():
    # s. 95: the machine failed, not the player: the round's wager comes back, the rng tilt is set,
    # and the wagers standing from an earlier round stay as they were
    from fakes_cabinet import FailingGen

    from rng import RngFailure

    cab, board, acc = cabinet("craps-83")
    led = cab.ledger
    led.accept(20)
    stand(cab, [({"pass": 2}, [4, 1])])  # a pass line on 5
    put(cab, "field", 1)
    cab.gameplay.use_generator(FailingGen(RngFailure("repetition", "stuck")))
    assert cab.handle(states.PLAY)
    assert "rng" in cab.tilts
    assert led.credits == 18 and led.meters["refunds"] == 1 and led.meters["coin_in"] == 3
    assert cab.gameplay.table() == {"point": 5, "bets": {"pass5": 2}} and led.game["phase"] == "void"
    led.audit()


def test_a_round_that_could_pay_past_the_prize_limit_is_refused_before_its_commit():
    # the maximum prize (vlt: $1,000, r. 7, s. 6) on the most the round can return, before anything is
    # committed: never a prize cut after the draw. A game doctored to say its round can return
    # 4001 credits (25 cents: $1,000.25)
    from firmware.config import Config

    cab, board, acc = cabinet("baccarat-mini-85", cfg=Config({"JURISDICTION": "vlt", "DENOM_CENTS": 25}))
    coins(cab, acc, 20)
    put(cab, "player", 10)
    m0 = dict(cab.ledger.meters)
    cab.gameplay.game.most = lambda stake, table=None: 4001
    try:
        assert cab.handle(states.PLAY)
        assert cab.screen.message == ("prize_refused",)
        assert cab.ledger.meters == m0 and cab.ledger.game is None and cab.ledger.credits == 20
        assert "maximum prize" in cab.ledger.events()[-1][3]
        cab.gameplay.game.most = lambda stake, table=None: 4000  # $1,000: within the limit
        assert cab.handle(states.PLAY)
        assert cab.ledger.meters["games_played"] == 1
    finally:
        del cab.gameplay.game.most  # the cached game is the engine's again


def test_a_committed_round_the_booted_game_cannot_play_is_refunded():
    cab, board, acc = cabinet("roulette-simple-97")
    coins(cab, acc, 10)
    from firmware.table_bounds import pack

    cab.ledger.wager(1, None, cab.game.id, pack([(999, 0)]))  # no wager 999 on this layout
    nv = board.nvram
    cab = board = acc = None
    cab, board, acc = cabinet("roulette-simple-97", nv=nv)
    led = cab.ledger
    assert led.game["phase"] == "void" and led.meters["refunds"] == 1 and led.credits == 10
    assert "round not playable on roulette-simple-97" in led.events()[-1][3], led.events()[-1]
    led.audit()


def test_the_audit_test_game_plays_the_layout_and_touches_no_meter():
    cab, board, acc = cabinet("sicbo-83")
    put(cab, "small", 2)
    board.pins["key_audit"].value(1)
    steps(cab, 8)
    assert cab.handle(states.TEST)
    o = cab.tested
    assert o.draws[0] == {"small": 2} and len(o.draws[2]) == 3
    assert cab.ledger.meters["games_played"] == 0 and cab.ledger.meters["coin_in"] == 0
    cab.handle(states.CLEAR)  # refused in audit: the layout stays
    assert cab.gameplay.stake() == {"small": 2}
