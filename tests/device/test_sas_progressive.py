# mp-heap: 768K  (as test_sas_polls.py: the NVRAM image, the SAS modules and the cabinet from source)
# A progressive linked through SAS (firmware/sas/progressive.py) on a real cabinet (fake board, both
# runtimes): the system's broadcasts 80 and 86, to the machine's address and to address 0; 84/85/87;
# exception 53 and the `progressive` tilt when the broadcasts stop. Known answers: the layouts of
# Monaco's public LP80/LP84/LP85/LP86/LP87 parsers (group 1 binary, level 1 binary, amount 5 BCD in
# cents; 86's length 1 + 6 per level), encoded here digit by digit, not by firmware/sas/bcd.py.
import gc

from fakes_cabinet import Acceptor, Board, coins, make_cabinet
from fakes_firmware import FrameUart, RamNvram, memory, wiped
from fakes_sas import send, with_crc
from test_sas_polls import digits, drain

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


def boot(nvram=None, group=GROUP):
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
    led.power_up()
    cab.resume()
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    cab.step(0)
    return cab, board, uart


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


def test_a_group_outside_1_255_is_refused_by_the_settings():
    from firmware import settings

    for bad in (0, 256, "7"):
        cfg = Config({"PROGRESSIVE_LINK": {"id": "x", "bet": 3, "math_hash": "h", "group": bad}})
        assert any("group" in p for p in settings.check(cfg)), bad
    ok = Config({"PROGRESSIVE_LINK": {"id": "x", "bet": 3, "math_hash": "h", "group": 255}})
    assert not any("PROGRESSIVE_LINK" in p for p in settings.check(ok))
