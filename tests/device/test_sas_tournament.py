# mp-heap: 768K  (as test_sas_polls.py: the 68 KB NVRAM image, the SAS modules and the cabinet from source)
# SAS tournament polls (8C enter/exit, 95-99 the tournament's meters) on a real cabinet (fake board,
# both runtimes), through the link as a host sends them. Messages and replies are written here from
# SAS 6.02's layouts (docs/sas.md "Tournament": 8C's game number 2 BCD, time MMSS 2 BCD, credits 4
# BCD, pulses 1 binary; 95-98's reply game number 2 BCD + meter 4 BCD, 99's the four in 95-98's order),
# the meters decoded digit by digit here and held to the games' own recall records, not to the code.
import gc

from fakes_cabinet import Acceptor, Board, coins, make_cabinet, press, steps
from fakes_firmware import FrameUart, RamNvram, memory, wiped
from fakes_sas import send, with_crc

import rng
from firmware import settings, states
from firmware.config import Config
from firmware.ledger import LAYOUT, Ledger
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine
from firmware.tournament_books import TourMeters
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(69632)
RULES = {"fee": 2, "games": 3, "pct": 50, "name": "SAS"}
ACK = b"\x01"
NACK = b"\x81"


def boot(nvram=None, rules=RULES):
    gc.collect()
    board = Board(nvram or wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    attach_queue(led)
    board.acc = Acceptor()
    cfg = Config({"SAS_TOURNAMENT": rules}) if rules else Config()
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), board.acc, cfg=cfg)
    led.power_up()
    cab.resume()
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    cab.step(0)
    return cab, board, uart


def poll(cab, board, uart, cmd, data):
    return send(cab, board, uart, with_crc(bytes((1, cmd)) + data))


def enter(cab, board, uart, credits, time=b"\x15\x00", game=b"\x00\x01", pulses=0):
    """8C: game, time MMSS, credits (8 BCD digits: the hex of their decimal), pulses."""
    c = bytes(int(("%08d" % credits)[i:i + 2], 16) for i in range(0, 8, 2))
    return poll(cab, board, uart, 0x8C, game + time + c + bytes((pulses,)))


def leave(cab, board, uart):
    return poll(cab, board, uart, 0x8C, b"\x00\x01" + b"\x00" * 7)


def digits(b):
    s = ""
    for x in b:
        s += "%02x" % x
    return int(s)


def meters(cab, board, uart, game=b"\x00\x01"):
    """95, 96, 97, 98 one by one, then 99: each reply checked whole (address, command, game, CRC)."""
    got = []
    for cmd in (0x95, 0x96, 0x97, 0x98):
        r = poll(cab, board, uart, cmd, game)
        assert len(r) == 10 and r[:4] == bytes((1, cmd)) + game and with_crc(r[:-2]) == r, (hex(cmd), r)
        got.append(digits(r[4:8]))
    r = poll(cab, board, uart, 0x99, game)
    assert len(r) == 22 and r[:4] == b"\x01\x99" + game and with_crc(r[:-2]) == r, r
    assert [digits(r[4 + 4 * i:8 + 4 * i]) for i in range(4)] == got, (r, got)
    return got


def from_recall(cab):
    """[played, won, wagered, awarded] of the tournament games the recall holds (each marked "tour")."""
    recs = [r for r in cab.ledger.recall() if r.get("tour")]
    return [len(recs), len([r for r in recs if r["win"]]), sum(r["bet"] for r in recs), sum(r["win"] for r in recs)]


def play_entry(cab, board):
    """Coins for the fee, then PLAY until the entry's games are played (or its credits gone)."""
    coins(cab, board.acc, 1)
    for _ in range(12):
        press(board, cab, "play")
        steps(cab, 80)  # the reels stop
        if cab.ledger.session is None and cab.ledger.meters["tournament_entries"]:
            return
    raise AssertionError(cab.ledger.session)


def test_8c_enters_and_leaves_tournament_mode_as_the_consoles_start_and_end():
    cab, board, uart = boot()
    assert meters(cab, board, uart) == [0, 0, 0, 0]  # no tournament yet: zero
    assert leave(cab, board, uart) == NACK  # not in tournament mode: as 'tournament end' refuses
    assert enter(cab, board, uart, 100) == ACK  # 15:00, 100 credits
    t = cab.ledger.tour
    assert (t["fee"], t["credits"], t["games"], t["pct"], t["hours"], t["name"]) == (2, 100, 3, 50, 1, "SAS")
    assert cab.ledger.events()[-1][2] == "tournament"
    assert enter(cab, board, uart, 200, b"\x99\x59") == NACK  # one is running
    assert cab.ledger.tour["credits"] == 100
    play_entry(cab, board)
    want = from_recall(cab)
    assert want[0] == 3 and meters(cab, board, uart) == want
    assert meters(cab, board, uart, b"\x00\x00") == want  # game 0: the machine
    paid = cab.ledger.meters["tournament_prizes"]
    assert leave(cab, board, uart) == ACK
    assert cab.ledger.tour is None and cab.ledger.meters["tournament_prizes"] == paid + 1  # half of 2, rounded up
    assert meters(cab, board, uart) == want  # kept after the end, until the next start
    assert enter(cab, board, uart, 50, b"\x01\x00") == ACK  # 1:00 -> 1 h
    assert meters(cab, board, uart) == [0, 0, 0, 0]


def drain(cab, board, uart):
    got = []
    for _ in range(80):
        c = send(cab, board, uart, b"\x81")
        if c == b"\x00":
            return got
        got.append(c[0])
    raise AssertionError(got)


def test_a_tournament_game_is_reported_started_and_ended_as_any_game():
    # SAS 7E / 7F (Table A-1: game started, game ended): a tournament game is counted in games_played
    # and 1C's games played, so the system hears of it as of any game (fuzz: 7E once per game played)
    cab, board, uart = boot()
    assert enter(cab, board, uart, 100) == ACK
    drain(cab, board, uart)
    play_entry(cab, board)
    got = drain(cab, board, uart)
    assert got.count(0x7E) == 3 and got.count(0x7F) == 3, got
    cab = cab2 = None
    cab2, board2, uart2 = boot()
    assert enter(cab2, board2, uart2, 100) == ACK
    coins(cab2, board2.acc, 1)
    led = cab2.ledger
    led.tour_enter()
    drain(cab2, board2, uart2)
    led.wager(1, None, "sept-royal-87")
    led.void("rng failure")
    assert drain(cab2, board2, uart2) == [0x7E, 0x7F]


def test_8c_is_refused_as_the_state_table_and_the_books_refuse():
    cab, board, uart = boot()
    coins(cab, board.acc, 2)
    press(board, cab, "play")  # an ordinary game, its reels turning
    assert cab.state == states.SPIN and states.action(states.SPIN, states.HOST_TOURNAMENT) is None
    assert enter(cab, board, uart, 100) == NACK and cab.ledger.tour is None
    steps(cab, 80)
    assert poll(cab, board, uart, 0x01, b"") == ACK  # the system's shut down: the host tilt
    assert cab.state == states.TILT and enter(cab, board, uart, 100) == NACK
    assert poll(cab, board, uart, 0x02, b"") == ACK
    assert cab.state == states.CREDIT and enter(cab, board, uart, 100) == ACK  # credits on the meter: taken
    coins(cab, board.acc, 1)
    press(board, cab, "play")  # the entry's first game (a tournament game turns no reels: s. 94's wait is money's)
    steps(cab, 80)
    assert cab.ledger.session is not None and leave(cab, board, uart) == NACK  # an entry under way
    assert cab.ledger.tour is not None


def test_8c_refuses_what_jeton_cannot_carry_out():
    cab, board, uart = boot(rules=None)
    assert enter(cab, board, uart, 100) == NACK  # no published rules (SAS_TOURNAMENT null)
    d = poll(cab, board, uart, 0xA0, b"\x00\x01")
    assert d[4] & 0x08 == 0  # A0: no tournament feature
    cab, board, uart = boot()
    assert poll(cab, board, uart, 0xA0, b"\x00\x01")[4] & 0x08  # and with them, the feature
    for why, r in (("pulses", enter(cab, board, uart, 100, pulses=1)),
                   ("no length", enter(cab, board, uart, 100, b"\x00\x00")),
                   ("seconds", enter(cab, board, uart, 100, b"\x10\x60")),
                   ("game 2", enter(cab, board, uart, 100, game=b"\x00\x02")),
                   ("not BCD", enter(cab, board, uart, 100, b"\x1A\x00")),
                   ("credits past the console's bound", enter(cab, board, uart, 1000001))):
        assert r == NACK and cab.ledger.tour is None, why
    assert poll(cab, board, uart, 0x95, b"\x00\x02") == NACK  # another game's meters
    assert enter(cab, board, uart, 1000000, b"\x99\x59") == ACK  # the bounds themselves: 99:59 -> 2 h
    assert cab.ledger.tour["hours"] == 2


def test_a_tournament_and_its_meters_survive_a_power_cut():
    cab, board, uart = boot()
    assert enter(cab, board, uart, 100) == ACK
    play_entry(cab, board)
    want = meters(cab, board, uart)
    cab2, board2, uart2 = boot(board.nvram)  # a power cut
    assert cab2.ledger.tour is not None and cab2.ledger.tour["credits"] == 100
    assert meters(cab2, board2, uart2) == want == from_recall(cab2)


def test_a_voided_tournament_game_gives_its_game_and_wager_back():
    cab, board, uart = boot()
    assert enter(cab, board, uart, 100) == ACK
    coins(cab, board.acc, 1)
    led = cab.ledger
    led.tour_enter()
    led.wager(1, None, "sept-royal-87")
    assert meters(cab, board, uart) == [1, 0, 1, 0]
    led.void("rng failure")
    assert meters(cab, board, uart) == [0, 0, 0, 0] and led.session["left"] == 3


def test_the_rules_setting_is_checked_and_the_block_fits():
    assert settings.sas_tournament(None) is None and settings.sas_tournament(RULES) is None
    for bad in ({"fee": 2, "games": 3, "pct": 29}, {"fee": 0, "games": 3, "pct": 50}, {"fee": 2, "games": 3},
                {"fee": 2, "games": 3, "pct": 50, "other": 1}, [2, 3, 50], {"fee": 2, "games": 3, "pct": 50, "name": 7}):
        assert settings.sas_tournament(bad), bad
    assert any(p.startswith("SAS_TOURNAMENT") for p in settings.check(Config({"SAS_TOURNAMENT": {"fee": 1}})))
    t = TourMeters()
    t.add(99999999, 99999999, 99999999, 99999999)
    t.add(1, 1, 1, 1)  # rolls over at 8 digits, as SAS reports them
    assert t.counts == [0, 0, 0, 0]
    assert len(t.block()) <= dict(LAYOUT)["trn"]
    again = TourMeters()
    t.add(5, 2, 70, 40)
    again.load(t.block())
    assert again.counts == [5, 2, 70, 40]
