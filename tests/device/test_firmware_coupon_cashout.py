# Cash-out by redemption coupon under the vlt jurisdiction (firmware/coupon_books.py,
# firmware/coupon_store.py, firmware/coupon_out.py): committed (the books, then the coupon memory)
# before the first byte goes to the printer, printed once the printer is ready, again with the same
# number after a cut or a fault, automatic at $1,000 (L-6, r. 3, s. 6), never reprinted under vlt;
# numbered from the validation id the system sets, from a sequence that a RAM clear does not reach;
# every record kept until the system acknowledges it. Real Cabinet and Ledger over a fake board
# with a 128 KB part (the books at 0, the coupon memory at coupon_store.CPN_BASE) and the in-memory
# printer (tests/device/fakes_printer.py).
# mp-heap: 1024K  (the fake board's 128 KB NVRAM image and a game model, and the printer; compiled from
# source, the console's import grows the qstr pool by one piece that 896K, cut up by the 25 tests
# before it, no longer had after the 2026-11-28 heap merges; found by the run, not a board figure)
import gc

from devtest import big_win, raises
from fakes_cabinet import Acceptor, Board, coins, make_cabinet, press, quiet, steps
from fakes_console import Uart, run
from fakes_firmware import RamNvram, memory, wiped
from fakes_printer import FakePrinter, tickets_sent

import rng
from board.printer_epic import Printer
from firmware import config, coupon_number, coupon_store, coupon_system, jurisdiction, startup
from firmware.config import Config
from firmware.coupon_out import PRINTER_IDLE_MS
from firmware.critmem import RamError
from firmware.ledger import Ledger
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(coupon_store.PART)
VID = 4242  # the validation id "the system" sets (SAS 4C; the console's `validation set`)


VLT = Config({"JURISDICTION": "vlt"})


def boot(board, fake, acc=None, profile=None):
    """Power up on the board's NVRAM as firmware/startup.py does (a fresh Ledger and Cabinet:
    nothing kept from RAM; money out by startup.open_coupon_out, with a printer on the fake whose
    silent requests are short); a ledger that cannot be opened is a RAM error, the coupon memory is
    opened all the same. profile: the jurisdiction's (default vlt's)."""
    gc.collect()
    led = Ledger(memory(board.nvram))
    ram_error = None
    try:
        led.open()
    except RamError as e:
        ram_error = str(e)
        led.st = None
    acc = acc or Acceptor()
    printer = Printer(fake, board.idle, timeout_ms=5, clock=board.ticks_ms)  # its timeouts on the board's clock

    def coupon_out(screen, found):
        return startup.open_coupon_out(board, led, VLT, profile or jurisdiction.PROFILES["vlt"], None, screen, found,
                                       quiet, printer)

    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, VLT,
                       money_out=coupon_out)
    if ram_error:
        cab.set_ram_error(ram_error)
    else:
        cab.resume()
    cab.step(0)
    return cab, acc


def startup_store(board):
    """The coupon memory as a power-up would find it now."""
    from fakes_firmware import TEST_SECRET, counter_of

    store = coupon_store.CouponStore(coupon_store.open_memory(board.nvram, TEST_SECRET,
                                                              counter_of(board.nvram, "coupons")), TEST_SECRET)
    store.open()
    return store


def fresh(vid=VID, profile=None):
    board = Board(wiped(NVRAM))
    fake = FakePrinter()
    cab, acc = boot(board, fake, profile=profile)
    if vid:
        coupon_system.set_validation_id(cab, vid)
    return cab, board, acc, fake


def test_cashout_commits_the_coupon_before_the_first_byte_then_prints_it():
    cab, board, acc, fake = fresh()
    coins(cab, acc, 3)
    assert cab.ledger.credits == 12
    seen = []
    write = fake.write

    def spy(data):
        if bytes(data) == b"\x1b@" and not seen and cab.ledger.coupons():
            # what a power cut right now would find in NVRAM: credits gone, the coupon owed, in the
            # books and in the coupon memory
            led = Ledger(memory(board.nvram))
            led.open()
            seen.append((led.credits, led.coupon_owed(), led.meters["coupon_out"],
                         startup_store(board).owed()))
        return write(data)

    fake.write = spy
    press(board, cab, "cashout")
    steps(cab, 20)
    credits, owed, paid, kept = seen[0]
    assert credits == 0 and paid == 12 and owed["st"] == "owed" and owed["k"] == 12 and owed["c"] == 300
    assert kept["n"] == owed["n"] and kept["st"] == "owed" and kept["c"] == 300
    assert fake.tickets == 1 and tickets_sent(fake) == [owed["n"]]
    assert b"Valeur/Value: $3.00\n" in fake.data and b"Credits: 12\n" in fake.data
    [rec] = cab.ledger.coupons()
    assert rec["st"] == "issued" and rec["n"] == owed["n"] and coupon_number.valid(rec["n"])
    assert rec["n"][:8] == "%08d" % VID and cab.coupons.coupon_record(rec["s"])["st"] == "issued"
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
    steps(cab, 20 + PRINTER_IDLE_MS // 10)  # the printer silent at its last request is asked again after a pause
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
    cab.coupon_cashout()
    assert cab.ledger.credits == 4 and len(cab.coupons.records()) == 1
    assert cab.ledger.issue_coupon(cab.coupons.draft(4, 100, 0, "cash-out")) is None
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


def test_no_reprint_under_vlt():
    """The Québec operator's practice: a coupon printed is never printed again (an interrupted one
    is completed under its own number: the tests above)."""
    cab, board, acc, fake = fresh()
    coins(cab, acc, 1)
    press(board, cab, "cashout")
    steps(cab, 20)
    before = bytes(fake.data)
    with raises(ValueError) as e:
        cab.reprint_coupon()
    assert str(e.value).startswith("no reprint: ") and bytes(fake.data) == before
    assert cab.coupons.records()[0]["d"] == 0


def test_reprint_where_the_profile_allows_it_is_marked_duplicate_and_worth_nothing_more():
    cab, board, acc, fake = fresh(profile=dict(jurisdiction.PROFILES["vlt"], reprint=True))
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
    assert cab.ledger.meters == before and cab.coupons.records()[-1]["st"] == "issued"
    assert cab.coupons.records()[-1]["d"] == 1
    assert cab.ledger.events()[-1][2] == "coupon-dup"
    fake.jam = True
    with raises(ValueError):
        cab.reprint_coupon()


def test_casino_cabinet_has_no_printer_and_pays_by_hopper_or_hand():
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc)
    cab.resume()
    coins(cab, acc, 1)
    press(board, cab, "cashout")
    assert not cab.ledger.coupons() and cab.state == "handpay"  # no hopper wired here: by hand


def test_a_big_win_goes_to_the_credits_never_a_hand_pay():
    """L-6, r. 3, s. 7: under vlt nothing pays but a coupon: a win at or above config.JACKPOT_LIMIT
    (the casino's hand-pay lock) is credited, and the credits leave by coupon."""
    cab, board, acc, fake = fresh()
    coins(cab, acc, 1)
    assert cab.config.JACKPOT_LIMIT == config.JACKPOT_LIMIT == 1200

    credits = cab.ledger.credits
    cab.game.play = lambda gen, bet: big_win(1300)  # above config.JACKPOT_LIMIT
    press(board, cab, "play")
    steps(cab, 60)  # past SPIN_MS
    assert cab.ledger.lock is None and cab.ledger.credits == credits - cab.ledger.bet + 1300
    assert cab.state == "credit", cab.state


def power_up_vlt(board, fake):
    """A power-up as firmware/startup.py does it under vlt: money out by open_money_out, the printer
    on the board's "printer" UART."""
    gc.collect()
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    board.uart = lambda name: fake
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, VLT,
                       money_out=lambda screen, found: startup.open_money_out(board, None, led, VLT, None, screen,
                                                                              found, quiet))
    # the driver times its requests on the real clock (board.compat's ticks_ms, every board's): here
    # the fake board's, so a silent request ends after the same loop passes in every run
    cab.money_out.printer.timeout_ms = 5
    cab.money_out.printer.clock = board.ticks_ms
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
    coupon_system.set_validation_id(cab, VID)
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
    """A board profile may have a hopper wired (config HOPPER): under vlt the cash-out never uses it
    (S-13.1, r. 7, s. 4: by coupon only): money out is the coupon's, with no hopper to drive. With no
    printer (its UART missing: a config tilt) the credits stay."""
    from firmware.coupon_out import CouponOut

    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()

    def no_printer(name):
        raise KeyError("no uart %r" % name)

    board.uart = no_printer
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, VLT,
                       money_out=lambda screen, found: startup.open_money_out(board, None, led, VLT, None, screen,
                                                                              found, quiet))
    assert VLT.HOPPER and type(cab.money_out) is CouponOut and not hasattr(cab.money_out, "hopper")
    assert cab.tilts["config"].startswith("coupon printer: ")
    cab.resume()
    cab.ledger.accept(8)  # credits on the meter from before (the config tilt takes no money in)
    press(board, cab, "cashout")  # the tilt state's cash-out
    steps(cab, 20)
    assert cab.ledger.credits == 8 and cab.ledger.meters["cashout"] == 0
    assert cab.state == "tilt" and cab.ledger.lock is None  # no hand pay either


def test_a_cash_out_right_after_a_reprint_is_issued_by_its_own_ticket_only():
    """The printer's "printed" says only that the last ticket came out: a DUPLICATE still in the
    paper path when the next cash-out commits its coupon must not issue that coupon (found by
    `make fuzz`: coupon 2 booked issued with no ticket of it on paper, its credits lost). Where a
    profile allows the reprint (never under vlt)."""
    cab, board, acc, fake = fresh(profile=dict(jurisdiction.PROFILES["vlt"], reprint=True))
    coins(cab, acc, 1)
    press(board, cab, "cashout")
    steps(cab, 20)
    [first] = cab.ledger.coupons()
    fake.path = True  # the DUPLICATE below is still in the paper path at the next status reads
    cab.reprint_coupon()
    coins(cab, acc, 2)
    cab.coupon_cashout()
    for _ in range(3):
        cab.money_out._next = board.now  # the cabinet's next printer poll, now
        cab.step(1)
    second = cab.ledger.coupons()[-1]
    assert second["s"] == 2 and second["st"] == "owed", second  # its own ticket not sent yet
    fake.path = False
    steps(cab, 40)
    assert tickets_sent(fake) == [first["n"], first["n"], second["n"]]
    assert cab.ledger.coupons()[-1]["st"] == "issued" and fake.tickets == 3


def spoil_books(board):
    """Both copies of the books' state block spoilt, and the journal that could rebuild them: a RAM
    error at the next power-up."""
    mem = memory(board.nvram)
    mem.open()
    for off in (mem._copy_off("state", 0) + 20, mem._copy_off("state", 1) + 20, 10):
        board.nvram.mem[off] ^= 0xFF


def cash_out(board, cab, fake):
    n = fake.tickets
    press(board, cab, "cashout")
    steps(cab, 20)
    assert fake.tickets == n + 1 and cab.ledger.credits == 0
    return cab.coupons.records()[-1]


def test_a_twenty_dollar_coupon_a_ram_clear_and_a_five_dollar_coupon_have_different_numbers():
    """Issue 22.3: after a RAM clear the sequence started again, and a $20 coupon and a later $5
    coupon carried the same control number. The sequence and the records live in the coupon memory,
    which the RAM clear (the one a RAM error allows) does not reach."""
    cab, board, acc, fake = fresh()
    cab.ledger.accept(80)  # $20
    first = cash_out(board, cab, fake)
    assert first["c"] == 2000 and first["s"] == 1
    spoil_books(board)
    cab, acc = boot(board, fake)
    assert cab.state == "ramerror" and cab.coupons.records()[0]["n"] == first["n"]
    cab.ram_clear("tech")  # the technician's RAM clear: fresh books, meters at zero
    assert cab.ledger.meters["coupon_out"] == 0 and cab.state == "idle"
    cab.ledger.accept(20)  # $5
    second = cash_out(board, cab, fake)
    assert second["c"] == 500 and second["s"] == 2 and second["n"] != first["n"]
    assert tickets_sent(fake) == [first["n"], second["n"]]
    recs = cab.coupons.records()
    assert [(r["s"], r["n"], r["c"], r["st"]) for r in recs] == [
        (1, first["n"], 2000, "issued"), (2, second["n"], 500, "issued")]  # both awaiting the system
    cab, acc = boot(board, fake)  # and across another power cycle
    assert [r["n"] for r in cab.coupons.records()] == [first["n"], second["n"]]


def test_a_coupon_owed_when_the_books_are_lost_still_prints_after_the_ram_clear():
    cab, board, acc, fake = fresh()
    cab.ledger.accept(40)
    fake.out = True
    cab.coupon_cashout()  # committed in both memories; the printer is out of paper
    owed = cab.coupons.owed()
    assert owed["k"] == 40 and fake.tickets == 0
    spoil_books(board)
    fake.out = False
    cab, acc = boot(board, fake)
    steps(cab, 20)
    assert cab.state == "ramerror" and fake.tickets == 0  # nothing is done on books that cannot be trusted
    cab.ram_clear("tech")
    steps(cab, 20)
    assert tickets_sent(fake) == [owed["n"]] and cab.coupons.coupon_record(owed["s"])["st"] == "issued"
    assert cab.coupons.owed() is None and cab.state == "idle"


def test_a_cut_between_the_books_and_the_coupon_memory_loses_nothing():
    # the books committed the coupon (credits gone) and the power went before the coupon memory's commit
    cab, board, acc, fake = fresh()
    cab.ledger.accept(12)
    rec = cab.coupons.draft(12, 300, 1795415529, "cash-out")
    cab.ledger.issue_coupon(rec)
    assert cab.coupons.records() == [] and cab.ledger.credits == 0
    cab, acc = boot(board, fake)
    assert cab.coupons.owed()["n"] == rec["n"] and cab.state == "payout"
    steps(cab, 20)
    assert tickets_sent(fake) == [rec["n"]] and cab.ledger.coupon_owed() is None
    assert cab.coupons.validation() == (VID, 1) and cab.ledger.meters["coupon_out"] == 12
    # and the other way round: issued in the coupon memory, the cut before the books knew
    cab.ledger.accept(8)
    fake.out = True
    cab.coupon_cashout()
    s = cab.coupons.owed()["s"]
    assert cab.coupons.issued(s) and cab.ledger.coupon_owed()["s"] == s
    cab, acc = boot(board, fake)
    assert cab.ledger.coupon_owed() is None and cab.coupons.owed() is None and cab.state != "payout"


def test_a_lost_coupon_memory_keeps_the_credits_until_the_system_sets_a_validation_id():
    cab, board, acc, fake = fresh()
    cab.ledger.accept(12)
    first = cash_out(board, cab, fake)
    coins(cab, acc, 2)
    for bank in (0, 1):  # both copies of the coupon memory's head spoilt
        board.nvram.mem[cab.coupons.mem._copy_off("cv", bank) + 12] ^= 1
    cab, acc = boot(board, fake)
    why = cab.tilts.get("coupons")
    assert why and "coupon memory lost" in why and cab.state == "tilt", cab.tilts
    assert not cab.want_money() and not cab.handle("play") and cab.ledger.credits == 8
    assert "nvram" in [e[2] for e in cab.ledger.events()][-3:]
    press(board, cab, "cashout")
    steps(cab, 20)
    assert cab.ledger.credits == 8 and fake.tickets == 1  # stays on the meter: the cabinet shows why
    assert [r["n"] for r in cab.coupons.records()] == [first["n"]]  # the books' latest, kept again
    coupon_system.set_validation_id(cab, VID + 1)
    assert "coupons" not in cab.tilts and cab.state == "credit"
    second = cash_out(board, cab, fake)
    assert second["s"] == first["s"] + 1 and second["n"][:8] == "%08d" % (VID + 1)


def test_no_money_and_no_play_before_the_system_sets_a_validation_id():
    cab, board, acc, fake = fresh(vid=None)
    assert cab.tilts.get("coupons") == "no validation id: the system must set one"
    assert cab.state == "tilt" and not cab.want_money()
    coins(cab, acc, 1)
    assert cab.ledger.credits == 0
    coupon_system.set_validation_id(cab, VID)
    assert "coupons" not in cab.tilts and cab.want_money()
    assert cab.ledger.events()[-1][2] == "tilt-clear"
    assert [e[3] for e in cab.ledger.events() if e[2] == "validation"] == [
        "validation id %d, sequence 0 (was 0, 0)" % VID]


def test_records_awaiting_the_system_stop_money_and_play_and_the_credits_still_leave_by_coupon():
    cab, board, acc, fake = fresh()
    store = cab.coupons
    limit = coupon_store.CAPACITY - coupon_store.RESERVE
    for _ in range(limit - 1):  # coupons the system has not acknowledged (as many cash-outs would leave)
        rec = store.draft(4, 100, 1795415529, "cash-out")
        store.add(rec)
        store.issued(rec["s"])
    cab.coupon_condition()
    assert "coupons" not in cab.tilts
    coins(cab, acc, 1)
    cash_out(board, cab, fake)
    assert cab.tilts.get("coupons") == "coupon records awaiting the system: %d" % limit
    assert cab.state == "tilt" and not cab.want_money() and not cab.handle("play")
    cab.ledger.accept(8)  # a note that was already on its way to the stacker: its credits
    last = cash_out(board, cab, fake)  # the reserved record: the credits on the meter always leave
    assert last["k"] == 8 and store.waiting() == coupon_store.CAPACITY
    assert cab.tilts.get("coupons") == "coupon records full: %d awaiting the system" % coupon_store.CAPACITY
    recs = store.records()
    assert len(recs) == coupon_store.CAPACITY and all(r["st"] == "issued" for r in recs)
    for r in recs[:2]:
        coupon_system.acknowledge(cab, r["s"])  # the system has them
    assert "coupons" not in cab.tilts and cab.want_money()
    assert store.coupon_record(recs[0]["s"])["st"] == "acked"  # kept, until its slot is needed


def open_console(cab):
    """The console of the cabinet, every command allowed (who may run what: test_e2e_coupons.py)."""
    from firmware.console import Console

    con = Console(Uart(), cab)
    con._allowed = lambda words: None
    con.user = ("t", "administrator")
    return con


def test_the_console_reads_sets_and_acknowledges():
    import json

    cab, board, acc, fake = fresh()
    con = open_console(cab)
    assert run(con, "validation") == ["validation id %d, sequence 0, 0 records awaiting the system (room for 64)" % VID]
    assert run(con, "validation set 0") == ["error: validation id must be 1 to 16777215 (SAS 4C: 3 bytes)"]
    assert run(con, "validation set x") == ["error: usage: validation set ID [SEQ] (ID 1 to 16777215, SAS 4C)"]
    assert run(con, "validation set 4243 10") == ["validation id 4243, sequence 10, 0 records awaiting the system (room for 64)"]
    assert run(con, "validation set 4243 3")[0].startswith("validation id 4243, sequence 10,")  # never back
    coins(cab, acc, 1)
    rec = cash_out(board, cab, fake)
    assert rec["s"] == 11
    [got] = json.loads(run(con, "coupons json")[0])
    assert got == rec and got["n"][:8] == "00004243"
    [line] = run(con, "coupons 11")
    assert line.startswith("no 11 %s $1.00 4 credits " % rec["n"]) and line.endswith(" issued")
    assert run(con, "coupons 12") == ["error: no record of coupon 12"]
    assert run(con, "coupons 1 2") == ["error: usage: coupons [json | N | ack N [M]]"]
    assert run(con, "coupons ack 3 1") == ["error: coupons ack N M: N at most M"]
    assert run(con, "coupons ack 12") == ["error: no record of coupon 12"]
    assert run(con, "coupons ack 1 11") == ["1 acknowledged; 0 awaiting the system"]
    assert run(con, "coupons ack 11") == ["1 acknowledged; 0 awaiting the system"]  # again: nothing changes
    out = run(con, "coupons")
    assert out[0].endswith(" acked") and out[1] == "validation id 4243, sequence 11, 0 records awaiting the system (room for 64)"
    assert out[2] == "printer: ready"
    assert json.loads(run(con, "validation json")[0]) == {
        "vid": 4243, "seq": 11, "waiting": 0, "capacity": 64, "stop": None, "mode": "secure", "asked": None,
        "ticket": {"host": 0, "days": 0, "rdays": 0, "loc": "", "a1": "", "a2": ""}}  # nothing set by SAS 7B-7D
    assert run(con, "reprint") == ["error: no reprint: a coupon printed is never printed again (the jurisdiction's rule)"]


def test_the_console_of_a_cabinet_without_coupons():
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), Acceptor())
    con = open_console(cab)
    for line in ("coupons", "coupons json", "validation", "validation json"):
        assert run(con, line) == ["no coupon memory (jurisdiction %s)" % config.JURISDICTION], line
    assert run(con, "validation set 5") == ["error: no coupon memory on this cabinet"]
    assert run(con, "reprint") == ["error: no coupon printer on this cabinet"]
    from firmware import states

    cab.ledger.accept(4)
    cab.step(1)
    assert cab.handle(states.COUPON, "automatic coupon")  # the table takes it in credit: nothing to pay by
    assert cab.ledger.credits == 4 and not cab.ledger.coupons()
    assert run(con, "coupons ack 1") == ["no coupon memory (jurisdiction %s)" % config.JURISDICTION]


def test_a_books_coupon_that_cannot_be_kept_is_logged_not_a_restart_loop():
    # a coupon memory full of records awaiting the system, and the books naming a later coupon it
    # never got (no path makes this: a coupon is made only with room for it): power-up goes on
    cab, board, acc, fake = fresh()
    store = cab.coupons
    for _ in range(coupon_store.CAPACITY):
        rec = store.draft(4, 100, 1795415529, "cash-out")
        store.add(rec)
        store.issued(rec["s"])
    cab.ledger.accept(8)
    rec = dict(store.draft(8, 200, 1795415529, "cash-out"))
    cab.ledger.issue_coupon(rec)
    cab, acc = boot(board, fake)
    assert cab.state == "tilt" and "coupon records full" in cab.tilts["coupons"]
    assert any(e[3].startswith("no %d not kept: coupon records full" % rec["s"]) for e in cab.ledger.events())


def test_no_ram_clear_while_a_coupon_is_owed():
    # L-6, r. 3, s. 7: nothing but a coupon erases credits; the coupon owed is those credits
    from firmware import states

    cab, board, acc, fake = fresh()
    coins(cab, acc, 2)
    cab.coupon_cashout()  # committed; the power goes before the printer is served
    fake.out = True  # and the paper is out: the coupon stays owed
    cab, acc = boot(board, fake)
    board.pins["key_audit"].value(1)
    steps(cab, 20)
    assert cab.state == "payout" and cab.ledger.coupon_owed() is not None and fake.tickets == 0
    assert cab.handle(states.RAMCLEAR, "admin1") is False
    assert cab.why_refused(states.RAMCLEAR) == "RAM clear refused: a coupon is owed: it prints first"
    assert cab.ledger.coupon_owed()["k"] == 8 and cab.ledger.meters["coupon_out"] == 8
    fake.out = False  # paper loaded: printed and issued, nothing owed any more
    press(board, cab, "key_reset")  # (clears a printer tilt, when the fault raised one)
    steps(cab, 20)
    assert cab.ledger.coupons()[-1]["st"] == "issued"
    assert cab.state == "service" and cab.handle(states.RAMCLEAR, "admin1")


def test_the_audit_tilt_still_pays_the_credit_meter_by_coupon():
    # the books disagree (credits raised without the meters): no hand pay under vlt (s. 7), so the
    # coupon pays the meter as it stands, and the RAM clear that ends the tilt erases nothing
    from firmware import states

    cab, board, acc, fake = fresh()
    coins(cab, acc, 2)
    cab.ledger.st["credits"] += 3
    press(board, cab, "play")
    assert "audit" in cab.tilts and cab.state == "tilt"
    press(board, cab, "cashout")
    steps(cab, 20)
    [rec] = cab.ledger.coupons()
    assert rec["k"] == 11 and rec["st"] == "issued" and cab.ledger.credits == 0
    assert "audit" in cab.tilts  # the key never clears it
    board.pins["key_audit"].value(1)
    steps(cab, 8)
    assert cab.state == "service" and cab.handle(states.RAMCLEAR, "admin1")
    assert cab.ledger.events()[0][3] == "by admin1, audit key, nothing owed; tilt audit"
