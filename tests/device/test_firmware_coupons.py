# Cash-out by redemption coupon under the vlt jurisdiction (firmware/coupon_books.py,
# firmware/coupon_out.py): committed before the first byte goes to the printer, printed once the
# printer is ready, again with the same number after a cut or a fault, automatic at $1,000 (L-6,
# r. 3, s. 6), reprinted as a DUPLICATE by the attendant. Real Cabinet and Ledger over a fake board
# and the in-memory printer (tests/device/fakes_printer.py).
# mp-heap: 640K  (as test_firmware_cabinet.py: the fake board's 68 KB NVRAM image and a game model, and the printer)
import gc

import rng
from devtest import big_win, raises
from fakes_cabinet import Acceptor, Board, coins, press, steps
from fakes_firmware import RamNvram, memory, wiped
from fakes_printer import FakePrinter
from board.printer_epic import Printer
from firmware import config, coupon, jurisdiction
from firmware.cabinet import Cabinet
from firmware.ledger import Ledger
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(69632)


def boot(board, fake, acc=None):
    """Power up on the board's NVRAM (a fresh Ledger and Cabinet: nothing kept from RAM)."""
    gc.collect()
    led = Ledger(memory(board.nvram))
    led.open()
    acc = acc or Acceptor()
    cab = Cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, log=lambda m: None)
    cab.jurisdiction = jurisdiction.PROFILES["vlt"]
    cab.printer = Printer(fake, board.idle, timeout_ms=5)
    cab.printer.begin()
    cab.resume()
    cab.step(0)
    return cab, acc


def fresh():
    board = Board(wiped(NVRAM))
    fake = FakePrinter()
    cab, acc = boot(board, fake)
    return cab, board, acc, fake


def tickets_sent(fake):
    """The validation numbers of the tickets sent (GS E number LF), in order."""
    out = []
    d = bytes(fake.data)
    i = d.find(b"\x1dE")
    while i >= 0:
        j = d.index(b"\n", i)
        out.append(d[i + 2:j].decode())
        i = d.find(b"\x1dE", j)
    return out


def test_cashout_commits_the_coupon_before_the_first_byte_then_prints_it():
    cab, board, acc, fake = fresh()
    coins(cab, acc, 3)
    assert cab.ledger.credits == 12
    seen = []
    write = fake.write

    def spy(data):
        if bytes(data) == b"\x1b@" and not seen and cab.ledger.coupons():
            # what a power cut right now would find in NVRAM: credits gone, the coupon owed
            led = Ledger(memory(board.nvram))
            led.open()
            seen.append((led.credits, led.coupon_owed(), led.meters["coupon_out"]))
        return write(data)

    fake.write = spy
    press(board, cab, "cashout")
    steps(cab, 20)
    credits, owed, paid = seen[0]
    assert credits == 0 and paid == 12 and owed["st"] == "owed" and owed["k"] == 12 and owed["c"] == 300
    assert fake.tickets == 1 and tickets_sent(fake) == [owed["n"]]
    assert b"Valeur/Value: $3.00\n" in fake.data and b"Credits: 12\n" in fake.data
    [rec] = cab.ledger.coupons()
    assert rec["st"] == "issued" and rec["n"] == owed["n"] and coupon.valid(rec["n"])
    m = cab.ledger.meters
    assert m["coupon_out"] == 12 and m["cashout"] == 12 and m["hopper_out"] == 0 and m["cancelled"] == 0
    cab.ledger.audit()
    assert cab.state == "idle" and cab.ledger.coupon_owed() is None


def test_cut_before_printing_prints_the_same_coupon_at_power_up():
    cab, board, acc, fake = fresh()
    coins(cab, acc, 2)
    cab.coupon_cashout()  # committed; the power goes before the printer is served
    n = cab.ledger.coupon_owed()["n"]
    assert fake.tickets == 0
    cab, acc = boot(board, fake)
    assert cab.state == "payout" and cab.ledger.credits == 0  # no play while a coupon is owed
    steps(cab, 20)
    assert tickets_sent(fake) == [n] and fake.tickets == 1
    assert cab.ledger.coupons()[-1]["st"] == "issued" and cab.ledger.meters["coupon_out"] == 8


def test_cut_after_printing_before_it_is_booked_gives_one_number_paid_once():
    cab, board, acc, fake = fresh()
    coins(cab, acc, 2)
    cab.coupon_cashout()
    cab.step(10)  # the ticket goes out; the cut comes before the printer's "printed" is read
    n = cab.ledger.coupon_owed()["n"]
    assert fake.tickets == 1
    cab, acc = boot(board, fake)
    steps(cab, 20)
    assert tickets_sent(fake) == [n, n]  # printed again: the same control number, one valid coupon
    assert len(cab.ledger.coupons()) == 1 and cab.ledger.meters["coupon_out"] == 8
    cab.ledger.audit()


def test_fault_mid_print_tilts_and_the_key_clears_only_a_ready_printer():
    for fault, name in (("jam", "paper jam"), ("out", "paper out"), ("open", "head open")):
        cab, board, acc, fake = fresh()
        coins(cab, acc, 1)
        fake.fault_at_ff = fault
        press(board, cab, "cashout")
        steps(cab, 10)
        assert cab.tilts.get("printer") == name, (fault, cab.tilts)
        assert fake.tickets == 0 and cab.ledger.coupon_owed() is not None and cab.ledger.credits == 0
        press(board, cab, "key_reset")
        assert "printer" in cab.tilts  # still at fault: the key does not clear it
        setattr(fake, fault, False)
        fake.path = False
        press(board, cab, "key_reset")
        steps(cab, 20)
        assert "printer" not in cab.tilts and fake.tickets == 1
        n = cab.ledger.coupons()[-1]["n"]
        assert tickets_sent(fake) == [n, n] and cab.ledger.coupons()[-1]["st"] == "issued"
        assert cab.state == "idle"


def test_printer_at_fault_before_cashout_keeps_the_coupon_owed():
    cab, board, acc, fake = fresh()
    coins(cab, acc, 1)
    fake.out = True
    press(board, cab, "cashout")
    assert cab.tilts.get("printer") == "paper out" and cab.ledger.coupon_owed()["k"] == 4
    assert tickets_sent(fake) == []  # nothing sent into a fault
    fake.mute = True
    cab, acc = boot(board, fake)  # and a power cycle while the printer does not answer
    assert cab.ledger.coupon_owed()["k"] == 4 and cab.state == "payout"
    fake.mute = False
    steps(cab, 20)
    assert cab.tilts.get("printer") == "paper out"  # read again from the printer, not from memory
    fake.out = False
    press(board, cab, "key_reset")
    steps(cab, 20)
    assert fake.tickets == 1 and cab.ledger.coupon_owed() is None


def test_one_coupon_owed_at_a_time():
    cab, board, acc, fake = fresh()
    coins(cab, acc, 1)
    fake.out = True
    cab.coupon_cashout()
    cab.ledger.accept(4)  # (money in is inhibited while owed; the books refuse a second anyway)
    assert cab.ledger.issue_coupon("JTN-EMU-0001", 25) is None
    assert len(cab.ledger.coupons()) == 1


def test_automatic_coupon_at_one_thousand_dollars():
    cab, board, acc, fake = fresh()
    cab.ledger.accept(3991)  # a batch of credits, as the acceptor commits them
    coins(cab, acc, 2)  # 3999 credits: $999.75
    assert cab.ledger.credits == 3999 and not cab.ledger.coupons()
    cab.ledger.accept(1)  # 4000 credits: $1,000.00
    steps(cab, 20)
    [rec] = cab.ledger.coupons()
    assert rec["k"] == 4000 and rec["c"] == 100000 and rec["st"] == "issued"
    assert b"Valeur/Value: $1,000.00\n" in fake.data and cab.ledger.credits == 0
    assert "automatic coupon" in cab.ledger.events()[-2][3]


def test_reprint_is_marked_duplicate_and_worth_nothing_more():
    cab, board, acc, fake = fresh()
    with raises(ValueError):
        cab.reprint_coupon()  # nothing issued yet
    coins(cab, acc, 1)
    press(board, cab, "cashout")
    steps(cab, 20)
    before = dict(cab.ledger.meters)
    rec = cab.reprint_coupon()
    steps(cab, 20)
    assert rec["d"] == 1 and tickets_sent(fake) == [rec["n"], rec["n"]]
    tail = bytes(fake.data)[bytes(fake.data).rfind(b"\x1b@"):]
    assert b"*** DUPLICATA / DUPLICATE ***\n" in tail
    assert cab.ledger.meters == before and cab.ledger.coupons()[-1]["st"] == "issued"
    assert cab.ledger.events()[-1][2] == "coupon-dup"
    fake.jam = True
    with raises(ValueError):
        cab.reprint_coupon()


def test_casino_cabinet_has_no_printer_and_pays_by_hopper_or_hand():
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = Cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, log=lambda m: None)
    cab.resume()
    coins(cab, acc, 1)
    press(board, cab, "cashout")
    assert not cab.ledger.coupons() and cab.state == "handpay"  # no hopper wired here: by hand


def test_a_big_win_goes_to_the_credits_never_a_hand_pay():
    """L-6, r. 3, s. 7: under vlt nothing pays but a coupon: a win at or above config.JACKPOT_LIMIT
    (the casino's hand-pay lock) is credited, and the credits leave by coupon."""
    cab, board, acc, fake = fresh()
    coins(cab, acc, 1)
    assert config.JACKPOT_LIMIT == 1200

    credits = cab.ledger.credits
    cab.game.play = lambda gen, bet: big_win(1300)  # above config.JACKPOT_LIMIT
    press(board, cab, "play")
    steps(cab, 60)  # past SPIN_MS
    assert cab.ledger.lock is None and cab.ledger.credits == credits - cab.ledger.bet + 1300
    assert cab.state == "credit", cab.state


def power_up_vlt(board, fake):
    """A power-up as firmware/startup.py does it under vlt: the printer opened by open_printer."""
    from firmware import startup

    gc.collect()
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = Cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, log=lambda m: None)
    board.uart = lambda name: fake
    saved = config.JURISDICTION
    config.JURISDICTION = "vlt"
    try:
        startup.open_printer(board, cab, led)
    finally:
        config.JURISDICTION = saved
    # the driver waits for a reply on the real clock, calling idle(): here that would run the fake
    # board's clock ahead by the thousand; keep each silent request short and off the board's clock
    cab.printer.timeout_ms = 5
    cab.printer.idle = lambda ms: None
    cab.resume()
    return cab, acc


def run_for(board, cab, ms, until=None):
    t0 = board.now
    while board.now - t0 < ms and not (until and until()):
        cab.step(20)
    return board.now - t0


def test_a_printer_silent_at_power_up_tilts_naming_it_and_the_credits_wait_for_it():
    from firmware.coupon_out import PRINTER_BOOT_MS

    board = Board(wiped(NVRAM))
    fake = FakePrinter()
    cab, acc = boot(board, fake)
    coins(cab, acc, 2)
    fake.mute = True  # unplugged, or dead, across the power cycle
    cab, acc = power_up_vlt(board, fake)
    assert "printer" not in cab.tilts  # a printer powered up with the cabinet gets a moment first
    took = run_for(board, cab, 3 * PRINTER_BOOT_MS, lambda: "printer" in cab.tilts)
    assert cab.tilts.get("printer") == "no reply since power-up", cab.tilts
    assert PRINTER_BOOT_MS <= took < 3 * PRINTER_BOOT_MS and cab.state == "tilt"
    assert cab.ledger.credits == 8 and not cab.ledger.coupons()  # the credits stay on the meter
    press(board, cab, "key_reset")
    assert "printer" in cab.tilts  # the key does not clear a printer that still does not answer
    fake.mute = False
    press(board, cab, "key_reset")
    assert "printer" not in cab.tilts and cab.ledger.credits == 8
    press(board, cab, "cashout")
    steps(cab, 40)
    [rec] = cab.ledger.coupons()
    assert rec["k"] == 8 and rec["st"] == "issued" and fake.tickets == 1 and cab.ledger.credits == 0


def test_a_printer_that_answers_within_its_moment_is_no_tilt():
    from firmware.coupon_out import PRINTER_BOOT_MS

    board = Board(wiped(NVRAM))
    fake = FakePrinter()
    fake.mute = True
    cab, acc = power_up_vlt(board, fake)
    run_for(board, cab, PRINTER_BOOT_MS // 2)
    fake.mute = False
    run_for(board, cab, 3 * PRINTER_BOOT_MS)
    assert "printer" not in cab.tilts, cab.tilts
    fake.mute = True  # silent later on: the poll's fault event names it, as before
    run_for(board, cab, 3 * PRINTER_BOOT_MS, lambda: "printer" in cab.tilts)
    assert cab.tilts.get("printer") == "no reply"


def test_vlt_never_drives_a_hopper_and_pays_nothing_without_its_printer():
    """A board profile may have a hopper wired: under vlt the cash-out never uses it (S-13.1, r. 7,
    s. 4: by coupon only). With no printer (its UART missing: a config tilt) the credits stay."""
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = Cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, log=lambda m: None)
    cab.jurisdiction = jurisdiction.PROFILES["vlt"]

    class Hopper:  # online and ready: only the cash-out's choice keeps it still
        def __init__(self):
            self.payouts = []

        def busy(self):
            return False

        def service(self, out):
            pass

        def payout(self, coins, ref):
            self.payouts.append(coins)

    cab.hopper = Hopper()
    cab.hopper_ok = True
    cab.resume()
    coins(cab, acc, 2)
    press(board, cab, "cashout")
    steps(cab, 20)
    assert cab.hopper.payouts == [] and cab.ledger.credits == 8 and cab.ledger.meters["cashout"] == 0
    assert cab.state == "credit" and cab.ledger.lock is None  # no hand pay either


def test_a_cash_out_right_after_a_reprint_is_issued_by_its_own_ticket_only():
    """The printer's "printed" says only that the last ticket came out: a DUPLICATE still in the
    paper path when the next cash-out commits its coupon must not issue that coupon (found by
    `make fuzz`: coupon 2 booked issued with no ticket of it on paper, its credits lost)."""
    cab, board, acc, fake = fresh()
    coins(cab, acc, 1)
    press(board, cab, "cashout")
    steps(cab, 20)
    [first] = cab.ledger.coupons()
    fake.path = True  # the DUPLICATE below is still in the paper path at the next status reads
    cab.reprint_coupon()
    coins(cab, acc, 2)
    cab.coupon_cashout()
    for _ in range(3):
        cab._printer_next = board.now  # the cabinet's next printer poll, now
        cab.step(1)
    second = cab.ledger.coupons()[-1]
    assert second["s"] == 2 and second["st"] == "owed", second  # its own ticket not sent yet
    fake.path = False
    steps(cab, 40)
    assert tickets_sent(fake) == [first["n"], first["n"], second["n"]]
    assert cab.ledger.coupons()[-1]["st"] == "issued" and fake.tickets == 3
