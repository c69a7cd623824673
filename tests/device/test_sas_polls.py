# mp-heap: 768K  (as test_firmware_cabinet.py: the 68 KB NVRAM image, the SAS modules and the cabinet from source)
# Part 2's long polls on a real cabinet (fake board, both runtimes), through the link as a host
# sends them. Known answers: the layouts' lengths and offsets as saspy's sas.py reads them and
# Monaco's public LPParsers give them (docs/sas.md), CRC-16/KERMIT's check value 0x2189 (the CRC
# catalogue) for 21 with seed 0 over "123456789"; meters are read back against the books' own
# meters, decoded here from BCD digit by digit (not by firmware/sas/bcd.py).
import gc

from fakes_cabinet import Acceptor, Board, coins, make_cabinet, press, steps
from fakes_firmware import FrameUart, RamNvram, counter_of, memory, wiped
from fakes_sas import send, with_crc

import rng
from board.sas_crc import crc16
from firmware import states
from firmware.ledger import Ledger
from firmware.sas import exceptions
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(69632)


class Image:
    """board.image(): readinto/close over bytes, a few at a time (as flash is read)."""

    def __init__(self, data):
        self.data = data
        self.at = 0

    def readinto(self, buf):
        n = min(len(buf), len(self.data) - self.at, 7)
        buf[:n] = self.data[self.at:self.at + n]
        self.at += n
        return n

    def close(self):
        pass


class Latch:  # a battery-backed door latch, as an RTC tamper input gives (board/doors.py)
    def __init__(self, opened):
        self.opened = opened

    def read(self):
        return list(self.opened)

    def clear(self):
        self.opened = []


def boot(nvram=None, latch=None, cfg=None):
    gc.collect()
    board = Board(nvram or wiped(NVRAM))
    if latch:
        board.door_latch = Latch(latch)
    led = Ledger(memory(board.nvram))
    led.open()
    attach_queue(led)
    board.acc = Acceptor()
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), board.acc, cfg=cfg)
    led.power_up()
    cab.resume()
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    cab.step(0)
    return cab, board, uart


def long_poll(cab, board, uart, cmd, data=b"", crc=False, n=None):
    msg = bytes((1, cmd)) + data
    r = send(cab, board, uart, with_crc(msg) if data or crc else msg)
    if n is not None:
        assert len(r) == n, (hex(cmd), r)
        assert r[:2] == bytes((1, cmd)) and with_crc(r[:-2]) == r, r
    return r


def digits(b):
    """BCD bytes -> int, by their hex digits (the test's own decoding)."""
    s = ""
    for x in b:
        s += "%02x" % x
    return int(s)


def drain(cab, board, uart):
    got = []
    for _ in range(80):
        c = send(cab, board, uart, b"\x81")
        assert len(c) == 1
        if c[0] == 0:
            return got
        got.append(c[0])
    raise AssertionError(got)


def fresh(cfg=None):
    cab, board, uart = boot(cfg=cfg)
    drain(cab, board, uart)
    return cab, board, uart


def test_1c_meters_in_saspys_order():
    cab, board, uart = boot()
    coins(cab, board.acc, 2)
    press(board, cab, "play")
    steps(cab, 60)
    m = cab.ledger.meters
    d = long_poll(cab, board, uart, 0x1C, n=36)[2:-2]  # saspy: meters(), size=36
    got = [digits(d[i:i + 4]) for i in range(0, 32, 4)]
    assert got == [m["coin_in"], m["coin_out"], m["acceptor_in"] + m["bill_in"], m["jackpot"], m["games_played"],
                   m["games_won"], m["door_main"], m["power_resets"]], got
    assert digits(long_poll(cab, board, uart, 0x2A, n=8)[2:6]) == m["acceptor_in"] == 8
    assert digits(long_poll(cab, board, uart, 0x2B, n=8)[2:6]) == m["hopper_out"]
    assert digits(long_poll(cab, board, uart, 0x46, n=8)[2:6]) == m["bill_in"]
    assert digits(long_poll(cab, board, uart, 0x20, n=8)[2:6]) == 0


def test_2f_and_6f_selected_meters_for_game_n():
    cab, board, uart = boot()
    coins(cab, board.acc, 3)
    m = cab.ledger.meters
    # 2F: length, game 0001, codes 0C (credits), 08 (coin acceptor), 99 (not kept: left out)
    r = long_poll(cab, board, uart, 0x2F, bytes((5, 0x00, 0x01, 0x0C, 0x08, 0x99)))
    assert with_crc(r[:-2]) == r and r[2] == len(r) - 5 and r[3:5] == b"\x00\x01"
    assert r[5] == 0x0C and digits(r[6:10]) == 12 and r[10] == 0x08 and digits(r[11:15]) == m["acceptor_in"]
    assert len(r) == 17
    # 6F: codes 2 bytes LSB first; each meter: code, size 5, 10 BCD digits; an unknown one: size 0
    r = long_poll(cab, board, uart, 0x6F, bytes((6, 0x00, 0x00, 0x0C, 0x00, 0x34, 0x12)))
    assert r[2] == len(r) - 5 and r[3:5] == b"\x00\x00"
    assert r[5:8] == b"\x0c\x00\x05" and digits(r[8:13]) == 12 and r[13:16] == b"\x34\x12\x00"
    assert long_poll(cab, board, uart, 0xAF, bytes((4, 0x00, 0x01, 0x05, 0x00)))[5:8] == b"\x05\x00\x05"
    assert long_poll(cab, board, uart, 0x2F, bytes((3, 0x00, 0x02, 0x0C))) == b"\x81"  # no game 2: NACK
    r = long_poll(cab, board, uart, 0x2D, b"\x00\x01", n=10)
    assert r[2:4] == b"\x00\x01" and digits(r[4:8]) == m["cancelled"]


def test_bill_acceptor_disable_enable_and_kept_across_a_cut():
    cab, board, uart = boot()
    assert cab.want_notes()
    assert long_poll(cab, board, uart, 0x07, crc=True) == b"\x01"  # disable: ACK
    assert cab.want_money() and not cab.want_notes()  # coins still, no notes
    cab2, board2, uart2 = boot(board.nvram)  # a power cut
    assert not cab2.want_notes()
    assert long_poll(cab2, board2, uart2, 0x06, crc=True) == b"\x01"
    assert cab2.want_notes()


def test_disables_refused_mid_game_as_the_state_table_refuses_host_disable():
    cab, board, uart = boot()
    coins(cab, board.acc, 2)
    press(board, cab, "play")
    assert cab.state == states.SPIN and states.action(states.SPIN, states.HOST_DISABLE) is None
    for cmd, data in ((0x07, b""), (0x0A, b""), (0x09, b"\x00\x01\x01")):
        assert long_poll(cab, board, uart, cmd, data, crc=True) == b"\x81", hex(cmd)  # NACK
    assert cab.want_notes() is not False or cab.state == states.SPIN
    assert not cab.sas.queue.flags


def test_game_n_and_maintenance_stop_play_until_enabled_even_after_a_cut():
    cab, board, uart = boot()
    coins(cab, board.acc, 2)
    assert long_poll(cab, board, uart, 0x09, b"\x00\x02\x01") == b"\x81"  # no game 2
    assert long_poll(cab, board, uart, 0x09, b"\x00\x01\x01") == b"\x01"  # game 1 disabled
    assert cab.state == states.TILT and "sas-game" in cab.tilts
    d = long_poll(cab, board, uart, 0x56, n=6)  # enabled games: length 1, none
    assert d[2:4] == b"\x01\x00"
    press(board, cab, "play")
    assert cab.ledger.meters["games_played"] == 0
    assert long_poll(cab, board, uart, 0x0A, crc=True) == b"\x01"  # maintenance too
    cab2, board2, uart2 = boot(board.nvram)
    assert "sas-game" in cab2.tilts and "maintenance" in cab2.tilts
    assert long_poll(cab2, board2, uart2, 0x09, b"\x00\x01\x00") == b"\x01"
    assert long_poll(cab2, board2, uart2, 0x0B, crc=True) == b"\x01"
    assert cab2.state == states.CREDIT
    d = long_poll(cab2, board2, uart2, 0x56, n=8)
    assert d[2:6] == b"\x03\x01\x00\x01"  # length 3, one game, game 0001


def test_94_remote_hand_pay_reset_only_where_the_key_pays_the_lock():
    cab, board, uart = boot()
    assert long_poll(cab, board, uart, 0x94, crc=True, n=5)[2] == 2  # not in a hand pay
    coins(cab, board.acc, 3)
    press(board, cab, "cashout")
    assert cab.state == states.HANDPAY
    drain(cab, board, uart)
    assert long_poll(cab, board, uart, 0x94, crc=True, n=5)[2] == 0  # reset
    assert cab.ledger.credits == 0 and cab.ledger.meters["cancelled"] == 12 and cab.state == states.IDLE
    assert drain(cab, board, uart) == [0x52]  # hand pay was reset


def test_94_is_answered_once_its_commit_is_on_record_and_its_copies_follow_in_the_same_service():
    # the order's commit is written to its journal (its commit point) before the reply, its copies
    # after it (firmware/sas/machine.py: SAS 6.02 s. 2.3.2's 20 ms window). Once the service is
    # over nothing is left to replay; the NVRAM as a power cut at the reply leaves it (every write
    # after the reply undone: no second 68 KB part in the heap) has the lock reset, replayed from
    # the journal at power-up
    cab, board, uart = boot()
    coins(cab, board.acc, 3)
    press(board, cab, "cashout")
    drain(cab, board, uart)
    nv = board.nvram
    counter = counter_of(nv)
    at_reply = []  # the counter at the reply, then (offset, bytes before) of each write after it
    write, nv_write = uart.write, nv.write

    def reply(b):
        if not at_reply:
            at_reply.append(counter.value)
        return write(b)

    def later(off, data):
        if at_reply:
            at_reply.append((off, bytes(nv.mem[off:off + len(data)])))
        return nv_write(off, data)

    uart.write, nv.write = reply, later
    assert long_poll(cab, board, uart, 0x94, crc=True, n=5)[2] == 0
    del uart.write, nv.write
    assert cab.state == states.IDLE and len(at_reply) > 1  # the copies were written after the reply
    led = Ledger(memory(nv))
    assert led.open() == [] and led.st["lock"] is None and led.meters["cancelled"] == 12
    led = cab = None
    for off, old in reversed(at_reply[1:]):
        nv.mem[off:off + len(old)] = old
    counter.value = at_reply[0]
    led = Ledger(memory(nv))
    found = led.open()
    assert "replayed state from journal" in found, found
    assert led.st["lock"] is None and led.credits == 0 and led.meters["cancelled"] == 12


def test_1f_base_percent_is_the_certified_return_read_at_power_up():
    # 1F's base % (its last 4 ASCII digits, the decimal implied, cut: docs/sas.md's 1F row, as saspy
    # reads it) is the certified return at the largest bet: sept-royal-87's is 88.0698 % (docs/games.md's
    # table of the shipped games), so "8806". The boot reads it
    # right after the games' boot check (firmware/startup.py gives it to open_link): a certificate
    # unreadable afterwards does not change the answer (read at the first 1F, it came in a heap a
    # session had cut up: aurore-85 at 112K, 630 bytes not found)
    from firmware.sas.machine import certified_base, open_link

    cab, board, uart = boot()
    assert certified_base(cab.config.CERTS_DIR, cab.game) == "8806"
    assert certified_base("no/such/folder", cab.game) == "0000" and certified_base(cab.config.CERTS_DIR, None) == "0000"
    board.uart = lambda role: uart
    m = open_link(board, cab, lambda line: None, certified_base(cab.config.CERTS_DIR, cab.game))
    cab.config.CERTS_DIR = "no/such/folder"  # gone after power-up: 1F answers what the boot read
    cab.attach(None, m)
    info = long_poll(cab, board, uart, 0x1F, n=24)[2:-2]
    assert info[-4:] == b"8806", info


def test_games_polls_51_53_55_a0():
    cab, board, uart = boot()
    assert long_poll(cab, board, uart, 0x51, n=6)[2:4] == b"\x00\x01"  # saspy: size=6
    assert long_poll(cab, board, uart, 0x55, n=6)[2:4] == b"\x00\x01"
    d = long_poll(cab, board, uart, 0x53, b"\x00\x01", n=26)[2:-2]  # saspy reads 1F's fields after the game
    assert d[:2] == b"\x00\x01" and d[2:4] == b"JT" and d[7] == 0x04 and d[8] == 3
    info = long_poll(cab, board, uart, 0x1F, n=24)[2:-2]
    assert d[2:] == info  # game 1 is the machine's one game: 1F's fields
    d = long_poll(cab, board, uart, 0xA0, b"\x00\x01", n=9)[2:-2]
    assert d == b"\x00\x01\x00\x00\x00"  # no coupon memory: standard validation, no features
    r = long_poll(cab, board, uart, 0xB5, b"\x00\x01")
    assert with_crc(r[:-2]) == r and r[2] == len(r) - 5
    d = r[3:-2]  # game, max bet 2 BCD, group, levels 4, name, paytable, categories 2 BCD, denoms
    assert d[:2] == b"\x00\x01" and digits(d[2:4]) == 3 and d[4:9] == bytes(5)
    name = d[10:10 + d[9]]
    j = 10 + d[9]
    assert name == b"Royal Sevens" and d[j + 1:j + 1 + d[j]] == b"sept-royal-87"  # the model's names
    j += 1 + d[j]
    assert d[j:j + 2] == b"\x00\x00" and d[j + 2:] == b"\x01\x04"  # one denomination: 25 cents (C-4: 04)


def test_21_rom_signature_is_kermit_seeded_and_answered_later_without_stopping_play():
    cab, board, uart = fresh()
    board.image = lambda: Image(b"123456789")
    assert long_poll(cab, board, uart, 0x21, b"\x00\x00") == b"\x01"  # ACK: computing
    coins(cab, board.acc, 1)  # the cabinet's loop goes on (and computes a piece a pass)
    r = send(cab, board, uart, b"\x81")  # the next general poll carries the result
    assert r == with_crc(b"\x01\x21\x89\x21"), r  # 0x2189, LSB first: the check value
    assert send(cab, board, uart, b"\x81") == b"\x00"  # once
    r = long_poll(cab, board, uart, 0x21, b"\x00\x00", n=6)  # asked again: at once
    assert r[2:4] == b"\x89\x21"
    board.image = lambda: Image(b"123456788")  # one byte changed
    long_poll(cab, board, uart, 0x21, b"\x01\x00")
    steps(cab, 3)
    r = send(cab, board, uart, b"\x81")
    assert len(r) == 6 and r[2:4] != b"\x89\x21"
    assert (r[2] | r[3] << 8) == crc16(b"123456788", 0, None, 1)  # the seed is the CRC's start


def test_7e_reads_the_clock_and_7f_is_refused_where_the_profile_or_the_board_cannot_set_it():
    from firmware.sas import control

    cab, board, uart = boot()
    d = long_poll(cab, board, uart, 0x7E, n=11)[2:-2]
    mo, day, y = digits(d[0:1]), digits(d[1:2]), digits(d[2:4])
    assert 1 <= mo <= 12 and 1 <= day <= 31 and y >= 2024 and digits(d[4:5]) < 24
    msg = b"\x01\x15\x20\x26\x12\x00\x00"  # 2026-01-15 12:00:00
    assert cab.config.JURISDICTION == "casino"  # host_clock False: refused
    assert long_poll(cab, board, uart, 0x7F, msg) == b"\x81"
    # 2026-01-15 12:00 EST is 17:00 UTC: 1768496400 (20468 days after 1970-01-01, 17 h)
    assert control.utc_of_local(2026, 1, 15, 12, 0, 0) == 20468 * 86400 + 17 * 3600
    # 2026-07-01 12:00 EDT is 16:00 UTC
    assert control.utc_of_local(2026, 7, 1, 12, 0, 0) == 20635 * 86400 + 16 * 3600


def test_4c_4d_3d_are_ignored_without_a_coupon_memory():
    cab, board, uart = boot()
    assert cab.coupons is None
    assert long_poll(cab, board, uart, 0x4C, b"\x01\x00\x00\x00\x00\x00") == b""
    assert long_poll(cab, board, uart, 0x4D, b"\x00") == b""
    assert long_poll(cab, board, uart, 0x3D) == b""


# --- exceptions: raised by their real source, committed, a power cut, then reported once -----------
def cut_and_report(board, latch=None):
    """A power cut after the raise (before any general poll): what the next power-up reports."""
    cab, board2, uart = boot(board.nvram, latch)
    got = drain(cab, board2, uart)
    again = drain(cab, board2, uart)
    assert again == [], again
    return got


def test_power_lost_and_applied():
    cab, board, uart = fresh()
    got = cut_and_report(board)
    assert got.count(0x18) == 1 and got.count(0x17) == 1 and got.index(0x18) < got.index(0x17), got


def test_tilts_of_the_hopper_acceptor_validator_printer_and_a_general_one():
    for kind, why, code in (("hopper", "runaway", 0x22), ("acceptor", "coin refused", 0x21),
                            ("acceptor", "bill validator: jammed", 0x29), ("fraud", "string", 0x2C),
                            ("audit", "mismatch", 0x20), ("software", "bad", 0x37)):  # printer: test_sas_exception_codes
        cab, board, uart = fresh()
        cab.set_tilt(kind, why)
        cab.set_tilt(kind, why)  # again: the tilt is not new, nothing more to tell
        got = cut_and_report(board)
        assert got.count(code) == 1, (kind, got)
    cab, board, uart = fresh()
    cab.set_tilt("link", "no poll")  # the link's own tilt is no fault to report over it
    cab.set_tilt("printer", "paper out")  # the printer's code comes from its fault (firmware/coupon_out.py)
    got = cut_and_report(board)
    assert 0x20 not in got and 0x60 not in got, got


def test_a_game_voided_over_the_prize_limit_raises_the_general_tilt_once():
    # firmware/play.py: a game that would pay past the prize limit is voided with the prize tilt in
    # the same commit (s. 95); the tilt has no code of its own in Table A-1: 20, like the audit's
    cab, board, uart = fresh()
    coins(cab, board.acc, 2)
    led = cab.ledger
    led.wager(1)
    assert led.void("game over the prize limit", ("prize", "over $1,000")) == 1
    led.wager(1)
    led.void("game over the prize limit", ("prize", "over $1,000"))  # the tilt is not new
    got = cut_and_report(board)
    assert got.count(0x20) == 1 and got.count(0x7F) == 2, got


def test_notes_accepted_by_value():
    from firmware.config import Config

    # SAS Table A-1: 47 $1, 4A $20, 4C $100, 4F a note of another value; the credits are valued at the
    # cabinet's own config's credit (25 cents by default, 5 cents for the last two)
    five = Config({"DENOM_CENTS": 5})
    for cfg, credits, code in ((None, 4, 0x47), (None, 80, 0x4A), (None, 400, 0x4C), (None, 7, 0x4F),
                               (five, 20, 0x47), (five, 4, 0x4F)):
        cab, board, uart = fresh(cfg)
        led = cab.ledger
        led.bill_escrow(1, credits, 1)
        led.bill_stacked(2, "type 1")
        assert cut_and_report(board).count(code) == 1, (credits, code)


def test_a_note_of_unknown_fate_is_the_note_tilt_28_and_its_settlement_the_notes_code():
    # SAS Table A-1 28 (bill jam: docs/sas.md's code for the note tilt); the note counted (4A, a $20 at 25
    # cents a credit) only when the attendant settles it as stacked. It went unreported before issue 25.5:
    # the books set the tilt themselves (firmware/bill_books.py bill_unproven), not through Cabinet.set_tilt
    cab, board, uart = fresh()
    led = cab.ledger
    led.bill_escrow(3, 80, 9)
    led.bill_unproven(0, "CA0020A", "validator reset (event counter 10 -> 0)")
    assert "note" in cab.tilts
    got = cut_and_report(board)
    assert got.count(0x28) == 1 and 0x4A not in got, got
    cab, board, uart = boot(board.nvram)
    drain(cab, board, uart)
    cab.ledger.settle_note(True, "att")
    steps(cab, 2)
    assert drain(cab, board, uart) == [0x4A]


def test_ram_clear_and_doors_opened_while_off():
    cab, board, uart = fresh()
    board.pins["key_audit"].value(1)
    steps(cab, 8)
    assert cab.handle(states.RAMCLEAR, "tech"), (cab.state, cab.why_refused(states.RAMCLEAR))
    board.pins["key_audit"].value(0)
    assert cut_and_report(board).count(0x3A) == 1

    cab, board, uart = fresh()
    got = cut_and_report(board, ["door_logic"])  # opened while the power was off
    assert got.count(0x98) == 1 and got.count(0x15) == 1 and got.index(0x98) < got.index(0x15), got


def test_hand_pay_pending():
    cab, board, uart = fresh()
    coins(cab, board.acc, 2)
    press(board, cab, "cashout")  # the fake cabinet has no hopper: a hand pay
    assert cab.state == states.HANDPAY
    assert cut_and_report(board).count(0x51) == 1


def test_a_coupon_printed():
    cab, board, uart = fresh()
    led = cab.ledger
    coins(cab, board.acc, 2)
    rec = {"s": 7, "n": "011930467938027599", "c": 200, "k": 8, "t": 1, "st": "owed", "d": 0, "why": "cash-out"}
    assert led.issue_coupon(rec) is rec and led.coupon_issued(7)
    assert cut_and_report(board).count(0x3D) == 1


def test_a_progressive_win():
    from firmware.progressive import Progressive

    cab, board, uart = fresh()
    led = cab.ledger
    prog = Progressive(cab.game.m.progressive, "h")
    coins(cab, board.acc, 1)

    class Outcome:  # a hit of the model's progressive pay (games/models/sept-royal-87.json)
        bet, award, wins, draws, stops, window, triggered, free = 3, 1500, [(0, "3 SEVEN", 1500)], [0] * 3, \
            [0] * 3, [["X"]], 0, []

    led.wager(3, prog)
    led.settle(Outcome(), cab.game.id, 1200, prog)
    got = cut_and_report(board)
    assert got.count(0x54) == 1 and got.count(0x51) == 1, got  # the win, and its hand pay (a lock)


def test_quiet_tilts_raise_nothing():
    assert exceptions.codes("tilt host") is None and exceptions.codes("tilt maintenance") is None


def test_a_version_1_block_is_read():
    q = exceptions.ExceptionQueue(bytes((1, 2, 0, 1, 0x11, 0x7E)))  # part 1's layout
    assert q.n == 2 and q.overflows == 2 and q.flags == 0
    assert q.take() == exceptions.OVERFLOW and q.take() == 0x11


def test_the_table_is_the_links_types_and_every_command_is_answered():
    from board import sas_link
    from firmware.sas import polls

    # the table's own R, S, M (const() names: MicroPython keeps no attribute for them) are the link's
    for cmd, kind in ((0x1A, sas_link.R), (0x01, sas_link.S), (0x2F, sas_link.M)):
        assert polls.TABLE[polls.find(cmd) + 1] == kind
    cmds = [polls.TABLE[i] for i in range(0, len(polls.TABLE), 4)]
    assert len(cmds) == len(set(cmds)) == 83  # docs/sas.md lists them
    for i in range(0, len(polls.TABLE), 4):
        kind = polls.TABLE[i + 1]
        assert kind & 3 in (0, 1, 2) and 0 <= polls.TABLE[i + 3] < len(polls.MODULES)
        # only the progressive broadcasts, the common ticket data and the clock are taken from address 0
        # (sas_link.G)
        assert bool(kind & sas_link.G) == (polls.TABLE[i] in (0x7D, 0x7F, 0x80, 0x86)), hex(polls.TABLE[i])
