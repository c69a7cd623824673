# mp-heap: 768K  (as test_sas_polls.py: the NVRAM image, the SAS modules and the cabinet from source)
# A progressive linked through SAS (firmware/sas/progressive.py) on a real cabinet (fake board, both
# runtimes): the system's broadcasts 80 and 86, to the machine's address and to address 0; 84/85/87;
# exception 53 and the `progressive` tilt when the broadcasts stop. Known answers: the layouts of
# Monaco's public LP80/LP84/LP85/LP86/LP87 parsers (group 1 binary, level 1 binary, amount 5 BCD in
# cents; 86's length 1 + 6 per level), encoded here digit by digit, not by firmware/sas/bcd.py.
import gc

from fakes_cabinet import Acceptor, Board, coins, make_cabinet, press, steps
from fakes_firmware import FrameUart, PowerCut, RamNvram, memory, wiped
from fakes_sas import send, with_crc
from test_sas_polls import digits, drain, long_poll

import rng
from firmware import states
from firmware.config import Config
from firmware.ledger import Ledger
from firmware.progressive import Progressive
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine
from games import load

MODEL = "games/models/sept-royal-87.json"  # its progressive: pay "3 SEVEN" at bet 3
NVRAM = RamNvram(69632)
GROUP = 7


def boot(nvram=None, group=GROUP, hit=False):
    """A linked cabinet; hit: its game always draws 3 SEVEN (sevens()), before it resumes a game."""
    gc.collect()
    board = Board(nvram or wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    attach_queue(led)
    board.acc = Acceptor()
    game = load(MODEL)
    link = {"id": "floor-1", "bet": 3, "math_hash": "h"}
    if group:
        link["group"] = group
    cfg = Config({"PROGRESSIVE_LINK": link})
    prog = Progressive(game.m.progressive, "h", link, True)
    cab = make_cabinet(board, led, game, rng.open_generator(rng.open_source("emulated")), board.acc, cfg=cfg,
                       progressive=prog)
    if hit:
        stops = sevens(game)
        cab.gameplay.outcome = lambda bet: game.evaluate(bet, stops)
    led.power_up()
    cab.resume()
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    cab.step(0)
    return cab, board, uart


def sevens(game):
    """Stops that put SEVEN on the pay line of each reel (the model's one line is the middle row:
    games/models/sept-royal-87.json "lines": [[1, 1, 1]]), read from the model's strips."""
    m = game.m
    seven = m.symbols.index("SEVEN")
    stops = []
    for i in range(m.nreels):
        s = 0
        while m.column(m.base, i, s)[1] != seven:
            s += 1
        stops.append(s)
    return stops


def bcd5(n):
    s = "%010d" % n
    return bytes(int(s[i:i + 2], 16) for i in range(0, 10, 2))


def p80(group, level, cents, address=1):
    return with_crc(bytes((address, 0x80, group, level)) + bcd5(cents))


def p86(group, levels, address=1):
    body = bytes((group,))
    for lv, cents in levels:
        body += bytes((lv,)) + bcd5(cents)
    return with_crc(bytes((address, 0x86, len(body))) + body)


def test_no_play_until_the_first_broadcast_then_80_to_the_machine_ends_the_tilt():
    cab, board, uart = boot()
    assert cab.state == states.TILT and "progressive" in cab.tilts
    coins(cab, board.acc, 3)
    assert cab.ledger.credits == 0  # no money in while it stands
    assert send(cab, board, uart, p80(GROUP + 1, 1, 123456)) == b"\x01"  # another group: ACK, nothing
    assert "progressive" in cab.tilts
    assert send(cab, board, uart, p80(GROUP, 1, 123456)) == b"\x01"  # ours: ACK, the tilt goes
    assert "progressive" not in cab.tilts and cab.state != states.TILT
    assert cab.sas.linked.level() == 123456
    coins(cab, board.acc, 3)
    assert cab.ledger.credits == 12


def test_86_from_address_0_is_taken_and_never_answered():
    cab, board, uart = boot()
    assert send(cab, board, uart, p86(GROUP, ((2, 5000), (1, 250075)), address=0)) == b""  # no answer
    assert cab.sas.linked.level() == 250075 and cab.sas.linked.cents[2] == 5000
    assert "progressive" not in cab.tilts and cab.sas.link.broadcasts == 1
    assert send(cab, board, uart, p80(GROUP, 1, 250100, address=0)) == b""
    assert cab.sas.linked.level() == 250100
    # a global poll the machine does not take as a broadcast (1A to address 0): skipped, no answer
    assert send(cab, board, uart, b"\x00\x1a") == b"" and cab.sas.link.broadcasts == 2


def test_bad_broadcasts_are_nacked_and_change_nothing():
    cab, board, uart = boot()
    assert send(cab, board, uart, p80(GROUP, 1, 1000)) == b"\x01"
    bad_bcd = with_crc(bytes((1, 0x80, GROUP, 1, 0x00, 0x00, 0x00, 0x1A, 0x00)))
    assert send(cab, board, uart, bad_bcd) == b"\x81"
    assert send(cab, board, uart, p80(GROUP, 0x21, 2000)) == b"\x81"  # level past 20 (hex)
    assert send(cab, board, uart, p80(0, 1, 2000)) == b"\x81"  # group 0
    r = with_crc(bytes((1, 0x86, 8, GROUP, 1)) + bcd5(3000) + b"\x00")  # length not 1 + 6n
    assert send(cab, board, uart, r) == b"\x81"
    bad = p86(GROUP, ((1, 4000), (2, 5000)))
    bad = with_crc(bad[:11] + b"\x0f" + bad[12:-2])  # the second amount not BCD: neither kept
    assert send(cab, board, uart, bad) == b"\x81"
    wrong_crc = bytearray(p80(GROUP, 1, 9000))
    wrong_crc[-1] ^= 1
    assert send(cab, board, uart, bytes(wrong_crc)) == b""
    assert cab.sas.linked.level() == 1000 and cab.sas.linked.cents[2] == -1


def test_5_s_without_a_broadcast_is_exception_53_once_and_no_play_until_the_next():
    cab, board, uart = boot()
    drain(cab, board, uart)  # power-up's
    assert send(cab, board, uart, p80(GROUP, 1, 1000)) == b"\x01"
    board.now += 4990  # not yet 5 s
    cab.step(0)
    assert 0x53 not in cab.sas.queue.pending() and "progressive" not in cab.tilts
    board.now += 20
    cab.step(0)
    assert "progressive" in cab.tilts and cab.state == states.TILT
    assert drain(cab, board, uart) == [0x53]
    board.now += 10000
    cab.step(0)
    assert drain(cab, board, uart) == []  # once per silence
    assert send(cab, board, uart, p80(GROUP, 1, 1100)) == b"\x01"
    assert "progressive" not in cab.tilts
    board.now += 5100
    cab.step(0)
    assert drain(cab, board, uart) == [0x53]  # a new silence


def test_53_survives_a_power_cut_between_its_raise_and_its_report():
    cab, board, uart = boot()
    assert send(cab, board, uart, p80(GROUP, 1, 1000)) == b"\x01"
    drain(cab, board, uart)
    board.now += 5100
    cab.step(0)
    cab2, board2, uart2 = boot(board.nvram)
    got = drain(cab2, board2, uart2)
    assert got.count(0x53) == 1, got
    assert "progressive" in cab2.tilts  # and no play until the system's next broadcast


def test_84_85_87_answer_the_last_progressive_win():
    cab, board, uart = boot()
    assert send(cab, board, uart, p80(GROUP, 1, 1000)) == b"\x01"
    for cmd in (0x84, 0x85):
        r = send(cab, board, uart, bytes((1, cmd)))
        assert len(r) == 11 and with_crc(r[:-2]) == r and r[2:4] == bytes((GROUP, 1)) and digits(r[4:9]) == 0
    r = send(cab, board, uart, b"\x01\x87")
    assert r == with_crc(bytes((1, 0x87, 2, GROUP, 0)))  # length 2, the group, none waiting
    led = cab.ledger
    coins(cab, board.acc, 1)

    class Outcome:  # a hit of the model's progressive pay (games/models/sept-royal-87.json)
        bet, award, wins, draws, stops, window, triggered, free = 3, 1500, [(0, "3 SEVEN", 1500)], [0] * 3, \
            [0] * 3, [["X"]], 0, []

    led.wager(3, cab.progressive)
    led.settle(Outcome(), cab.game.id, 1200, cab.progressive)
    paid = led.meters["progressive_paid"]
    assert paid >= 1500
    r = send(cab, board, uart, b"\x01\x84")
    assert digits(r[4:9]) == paid * 25  # cents: 25 cents a credit


def test_without_a_group_nothing_is_linked_and_80_is_acked_and_ignored():
    cab, board, uart = boot(group=0)
    assert cab.sas.linked is None and "progressive" not in cab.tilts
    assert send(cab, board, uart, p80(GROUP, 1, 1000)) == b"\x01"
    board.now += 6000
    cab.step(0)
    assert drain(cab, board, uart).count(0x53) == 0
    r = send(cab, board, uart, b"\x01\x84")
    assert r[2:4] == b"\x00\x01"
    assert long_poll(cab, board, uart, 0x1F, n=24)[2:-2][7] == 0  # 1F: no progressive group


def test_a_group_outside_1_255_is_refused_by_the_settings():
    from firmware import settings

    for bad in (0, 256, "7"):
        cfg = Config({"PROGRESSIVE_LINK": {"id": "x", "bet": 3, "math_hash": "h", "group": bad}})
        assert any("group" in p for p in settings.check(cfg)), bad
    ok = Config({"PROGRESSIVE_LINK": {"id": "x", "bet": 3, "math_hash": "h", "group": 255}})
    assert not any("PROGRESSIVE_LINK" in p for p in settings.check(ok))


# The level paid (issue 25): the controller's level 1 in force when the game starts, in whole
# credits at the cabinet's 25 cents (rounded down), never under the model's reset of 1500 (its pay
# table's 3 SEVEN at bet 3, s. 93) nor over its ceiling of 4000 (games/models/sept-royal-87.json),
# committed with the wager. The figures below are that arithmetic done by hand.
RESET, CEILING, FIXED = 1500, 4000, 1500


def hit(cab, board):
    """Bet 3 and PLAY (the game draws 3 SEVEN); returns the wager's record while the reels turn."""
    cab.ledger.set_bet(3)
    press(board, cab, "play")
    return dict(cab.ledger.game)


def test_a_hit_pays_the_level_committed_with_the_wager_and_a_broadcast_mid_game_changes_nothing():
    cab, board, uart = boot(hit=True)
    led = cab.ledger
    drain(cab, board, uart)
    assert send(cab, board, uart, p80(GROUP, 1, 50010)) == b"\x01"  # $500.10: 2000 credits and 10 cents
    assert board.display.screen["jackpot"] == 2000  # the controller's amount, not the meter's 1500
    assert cab.progressive.amount(led.st) == RESET
    coins(cab, board.acc, 1)
    g = hit(cab, board)
    assert g["phase"] == "spin" and g["lp"] == 2000 and g["fixed"] == FIXED
    assert send(cab, board, uart, p80(GROUP, 1, 75000)) == b"\x01"  # $750 while the reels turn
    assert led.game["lp"] == 2000 and board.display.screen["jackpot"] == 2000  # what this game plays for
    steps(cab, 60)  # the reels stop (SPIN_MS 500)
    assert led.lock == {"kind": "jackpot", "amount": 2000}  # casino: a hand pay of the level committed
    assert led.meters["progressive_paid"] == 2000 and led.credits == 1
    assert led.recall()[-1]["prog"] == [2000, FIXED]
    assert led.st["prog_n"] == RESET * 1000 + 3  # the meter kept its contribution, paid nothing of it
    assert 0x54 in drain(cab, board, uart)  # progressive win, as before
    r = send(cab, board, uart, b"\x01\x84")
    assert r[2:4] == bytes((GROUP, 1)) and digits(r[4:9]) == 50000  # what was paid: 2000 x 25 cents
    led.clear_lock()
    steps(cab, 5)
    assert board.display.screen["jackpot"] == 3000  # the level in force now
    led.audit()


def test_the_level_is_whole_credits_between_the_reset_and_the_ceiling():
    cab, board, uart = boot(hit=True)
    led = cab.ledger
    for cents, want in ((100, RESET), (37499, RESET), (40024, 1600), (99999, 3999), (100000, CEILING),
                        (123456789, CEILING), (9999999999, CEILING)):
        assert send(cab, board, uart, p80(GROUP, 1, cents)) == b"\x01"
        coins(cab, board.acc, 1)
        assert cab.sas.linked.pays(cab.progressive, 3) == want, cents
        assert hit(cab, board)["lp"] == want, cents
        steps(cab, 60)
        assert led.lock["amount"] == want and led.recall()[-1]["prog"] == [want, FIXED], cents
        led.clear_lock()
        steps(cab, 5)


def test_a_bet_that_cannot_win_the_progressive_commits_no_level_and_pays_its_fixed_award():
    cab, board, uart = boot(hit=True)
    led = cab.ledger
    assert send(cab, board, uart, p80(GROUP, 1, 50010)) == b"\x01"
    coins(cab, board.acc, 1)
    led.set_bet(1)
    press(board, cab, "play")
    assert "lp" not in led.game
    steps(cab, 60)
    assert led.credits == 3 + 200 and led.meters["progressive_paid"] == 0  # 3 SEVEN at bet 1: 200


def test_a_game_started_once_the_level_went_stale_is_refused_before_anything_is_committed():
    cab, board, uart = boot(hit=True)
    led = cab.ledger
    assert send(cab, board, uart, p80(GROUP, 1, 50010)) == b"\x01"
    coins(cab, board.acc, 1)
    led.set_bet(3)
    board.now += 5100  # 5 s without a broadcast, and the loop has not seen it yet
    writes = board.nvram.writes
    cab.gameplay.play(cab)
    assert board.nvram.writes == writes and led.credits == 4 and led.meters["games_played"] == 0
    steps(cab, 1)
    assert "progressive" in cab.tilts  # and the loop stops play


def test_a_power_cut_at_every_write_of_the_game_then_it_completes_with_the_level_committed():
    seen = set()
    for n in range(1, 60):
        cab, board, uart = boot(hit=True)
        assert send(cab, board, uart, p80(GROUP, 1, 50010)) == b"\x01"
        coins(cab, board.acc, 1)
        cab.ledger.set_bet(3)
        board.nvram.cut(n)
        try:
            press(board, cab, "play")
            steps(cab, 60)
            cut = False
        except PowerCut:
            cut = True
        board.nvram.cut(None)
        nvram = board.nvram
        cab = board = uart = None
        cab, board, uart = boot(nvram, hit=True)  # the game completes at power-up, before any broadcast
        led = cab.ledger
        assert send(cab, board, uart, p80(GROUP, 1, 75000)) == b"\x01"  # a later level: never paid
        steps(cab, 60)
        played = led.meters["games_played"]
        if played:
            assert led.lock == {"kind": "jackpot", "amount": 2000}, (n, led.lock)
            assert led.meters["progressive_paid"] == 2000 and led.credits == 1
            assert led.recall()[-1]["prog"] == [2000, FIXED]
        else:
            assert led.credits == 4 and led.lock is None and led.meters["progressive_paid"] == 0, n
        led.audit()
        seen.add((cut, bool(played)))
        cab = board = uart = led = None
        if not cut:
            break
    assert seen == {(True, False), (True, True), (False, True)}, seen


def test_1f_53_and_b5_report_the_progressive_group():
    # 1F (and 53 after its game number): game id 2, additional id 3, denomination 1, max bet 1, then
    # the progressive group (Monaco's public LP1F/LP53 parsers); B5 after game number and max bet:
    # the group and the levels, 4 binary least significant byte first, bit 0 level 1 (its LPB5
    # parser and handler). Without a group: 0 and no level (test_without_a_group_..., test_sas_polls.py)
    cab, board, uart = boot()
    info = long_poll(cab, board, uart, 0x1F, n=24)[2:-2]
    assert info[7] == GROUP
    assert long_poll(cab, board, uart, 0x53, b"\x00\x01", n=26)[2:-2][9] == GROUP
    d = long_poll(cab, board, uart, 0xB5, b"\x00\x01")[3:-2]
    assert d[:2] == b"\x00\x01" and d[4] == GROUP and d[5:9] == b"\x01\x00\x00\x00"
