# mp-heap: 1152K  (the coupon cabinet's 128 KB NVRAM image, as test_firmware_coupon_cashout.py, and test_sas_polls')
# SAS part 3's exceptions, each raised by its real source, committed, then a power cut before any
# general poll: the next power-up reports it exactly once (both runtimes). Codes: SAS 6.02 Appendix
# A, Table A-1, as saspy's models/GPoll.py lists them: 3F validation id not configured, 66 cash out
# button pressed, 36 EPROM error (different checksum - version changed), 60 printer communication
# error, 61 printer paper out, 74 printer paper low, 78 printer carriage jammed.
from fakes_cabinet import Board, coins, press, steps
from fakes_firmware import FrameUart, wiped
from fakes_printer import FakePrinter
from test_firmware_coupon_cashout import NVRAM as PART
from test_firmware_coupon_cashout import VID
from test_firmware_coupon_cashout import boot as coupon_boot
from test_sas_polls import boot, cut_and_report, drain, fresh

from firmware import coupon_system, startup
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine


def test_66_the_cash_out_button_once():
    cab, board, uart = fresh()
    coins(cab, board.acc, 2)
    press(board, cab, "cashout")  # the fake cabinet has no hopper: a hand pay (51 too)
    got = cut_and_report(board)
    assert got.count(0x66) == 1 and got.count(0x51) == 1, got


def test_66_even_with_no_credits_to_cash_out():
    cab, board, uart = fresh()
    press(board, cab, "cashout")  # nothing to pay: the press is still the system's to know
    steps(cab, 2)
    assert drain(cab, board, uart) == [0x66]


def test_3f_when_no_validation_id_and_20_for_the_coupons_tilts_other_reasons():
    cab, board, uart = fresh()
    cab.set_tilt("coupons", "no validation id: the system must set one")
    got = cut_and_report(board)
    assert got.count(0x3F) == 1 and 0x20 not in got, got
    cab, board, uart = fresh()
    cab.set_tilt("coupons", "coupon records full: 16 awaiting the system")
    got = cut_and_report(board)
    assert got.count(0x20) == 1 and 0x3F not in got, got


class Releases:
    """authenticate.check as a signed image of release number `n` passes it."""

    def __init__(self, n):
        self.n = n

    def __call__(self, board, key, games, models_dir, certs_dir, last, code_dir):
        return "1.%d" % self.n, self.n


def test_36_when_the_release_number_changes_and_not_on_the_first_release():
    from firmware import authenticate

    saved = authenticate.builtin_key, authenticate.check
    try:
        authenticate.builtin_key = lambda: (b"k", b"e", False)
        cab, board, uart = fresh()
        for n, expect in ((1, 0), (1, 0), (2, 1)):  # the first number recorded, the same again, a new one
            authenticate.check = Releases(n)
            assert startup.authenticate_software(board, cab.ledger, None, lambda s: None, [], "m", "c")[0] is None
            got = cut_and_report(board)
            assert got.count(0x36) == expect, (n, got)
            cab, board, uart = boot(board.nvram)
            drain(cab, board, uart)
    finally:
        authenticate.builtin_key, authenticate.check = saved


def coupon_cabinet(board, fake):
    cab, acc = coupon_boot(board, fake)
    attach_queue(cab.ledger)
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    cab.step(0)
    return cab, uart


def poll_all(cab, board, uart):
    got = []
    for _ in range(40):
        board.now += 50
        cab.step(0)
        uart.tx = bytearray()
        uart.rx.append(b"\x81")
        cab.sas.service()
        if uart.tx[0] == 0:
            return got
        got.append(uart.tx[0])
    raise AssertionError(got)


def test_printer_faults_each_by_its_code_once_across_a_cut():
    for fault, code in (("out", 0x61), ("jam", 0x78), ("mute", 0x60), ("low", 0x74)):
        board = Board(wiped(PART))
        fake = FakePrinter()
        cab, uart = coupon_cabinet(board, fake)
        coupon_system.set_validation_id(cab, VID)
        poll_all(cab, board, uart)
        setattr(fake, fault, True)
        # the printer is asked every PRINTER_IDLE_MS (2 s) while idle: a silent one is "no reply" at
        # its MISSES-th (3) unanswered request, 4-6 s on
        for _ in range(40):
            board.now += 200
            cab.step(0)
        if fault != "low":
            assert "printer" in cab.tilts, fault
        cab, uart = coupon_cabinet(board, FakePrinter())  # power cut; a printer without the fault
        got = poll_all(cab, board, uart)
        assert got.count(code) == 1 and 0x20 not in got, (fault, got)
        assert poll_all(cab, board, uart) == []
