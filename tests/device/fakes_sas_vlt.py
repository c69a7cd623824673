# A vlt cabinet on its SAS line for the device tests of coupons over SAS (both runtimes): the real
# Cabinet, Ledger, coupon memory and SasMachine over a fake board with a 128 KB part (the books at 0,
# the coupon memory at coupon_store.CPN_BASE), the in-memory printer (fakes_printer.py) and a SAS
# port in RAM (fakes_firmware.py FrameUart). The host's side is written here from SAS 6.02's framing
# (docs/sas.md): type R polls bare, S and M with their CRC-16/KERMIT (board/sas_crc.py, whose check
# value tests/device/test_sas_link.py holds), BCD decoded digit by digit.
import gc

import fakes_sas
from fakes_cabinet import Acceptor, Board, make_cabinet, quiet, steps
from fakes_firmware import FrameUart, RamNvram, memory, wiped
from fakes_printer import FakePrinter, tickets_sent  # noqa: F401 (its tests take it from here)
from fakes_sas import with_crc

import rng
from board.printer_epic import Printer
from firmware import coupon_store, coupon_system, jurisdiction, startup
from firmware.config import Config
from firmware.ledger import Ledger
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(coupon_store.PART)
VLT = Config({"JURISDICTION": "vlt"})
VID = 4242  # the validation id the system gives (SAS 4C)


def boot(board, fake):
    """Power up on the board's NVRAM as firmware/startup.py does: the books, the exception queue,
    money out by coupon (startup.open_coupon_out: the coupon memory, reconciled with the books) and
    the SAS line; polled once, so the vlt's link is up."""
    gc.collect()
    led = Ledger(memory(board.nvram))
    led.open()
    attach_queue(led)
    printer = Printer(fake, board.idle, timeout_ms=5, clock=board.ticks_ms)  # its timeouts on the board's clock

    def coupon_out(screen, found):
        return startup.open_coupon_out(board, led, VLT, jurisdiction.PROFILES["vlt"], None, screen, found, quiet,
                                       printer)

    acc = Acceptor()
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), acc, VLT,
                       money_out=coupon_out)
    led.power_up()
    cab.resume()
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    cab.acc = acc
    cab.uart = uart
    cab.board = board
    cab.fake = fake
    cab.step(0)
    general(cab)  # the first poll: the link up (a vlt plays only with it)
    cab.step(0)
    return cab


def fresh(vid=VID):
    """A new vlt cabinet whose system has set its validation id (unless vid is 0), exceptions drained."""
    board = Board(wiped(NVRAM))
    cab = boot(board, FakePrinter())
    if vid:
        coupon_system.set_validation_id(cab, vid)
    drain(cab)
    return cab


def again(cab):
    """The power back on the same part and printer (nothing kept from RAM)."""
    return boot(cab.board, cab.fake)


def send(cab, msg):
    """One message after a silence; the machine's answer (bytes)."""
    return fakes_sas.send(cab, cab.board, cab.uart, msg)


def poll(cab, cmd, data=b"", address=1):
    """A long poll: type R bare (no data), type S with its data and CRC."""
    msg = bytes((address, cmd)) + data
    return send(cab, with_crc(msg) if data else msg)


def variable(cab, cmd, data, address=1):
    """A type M poll (7B-7D): its length byte, then data, then the CRC."""
    return send(cab, with_crc(bytes((address, cmd, len(data))) + data))


def general(cab):
    r = send(cab, b"\x81")
    assert len(r) == 1, r
    return r[0]


def drain(cab):
    got = []
    for _ in range(80):
        c = general(cab)
        if c == 0:
            return got
        got.append(c)
    raise AssertionError(got)


def reply(cmd, data):
    """The frame the machine must send: address 1, the command, data, the CRC (SAS 6.02 s. 2.2.2)."""
    return with_crc(bytes((1, cmd)) + bytes(data))


def bcd(value, nbytes):
    """value as nbytes of BCD, written here digit by digit (not by firmware/sas/bcd.py)."""
    s = "%0*d" % (2 * nbytes, value)
    return bytes(int(s[i:i + 2], 16) for i in range(0, 2 * nbytes, 2))


def coins(cab, n):
    for _ in range(n):
        cab.acc.push("coin", 1, 1)
    steps(cab, 12)


def tickets_text(fake):
    """The bytes of each ticket sent, from the printer's reset (ESC @) before it to its form feed."""
    d = bytes(fake.data)
    out = []
    end = d.find(b"\x0c")
    start = 0
    while end >= 0:
        out.append(d[start:end])
        start = end + 1
        end = d.find(b"\x0c", start)
    return out
