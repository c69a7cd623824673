# mp-heap: 768K  (as test_sas_cctalk_latency.py: the 68 KB NVRAM image and the cabinet's money out from source)
# Money out by hopper (firmware/hopper_out.py) over a bus whose replies come a pass later (fakes_slow_bus):
# the driver's set-up (start) and the cash-out a step a pass, and what the firmware does when a step
# fails: before the payout's record is saved, a hand pay (nothing went out); while the hopper is being
# set up with a payout left armed by a restart, nothing (the driver finishes it once the hopper
# answers: a hand pay then would pay the coins twice).
import gc

from fakes_board import Acceptor
from fakes_board import Hopper as FakeHopper
from fakes_firmware import RamNvram, memory, wiped
from fakes_slow_bus import Slow, master

from board.hopper_cctalk import Hopper
from firmware.config import Config
from firmware.hopper_out import HOPPER_RETRY_MS, HopperOut
from firmware.ledger import Ledger
from firmware.screen import Screen
from firmware.startup import _Store

NVRAM = RamNvram(69632)  # one image for the module, wiped per test (a small heap has room for one)
TOKEN = 4  # credits of the $1 token at 25 cents (firmware/config.py PAYOUT_COIN, DENOM_CENTS)


class Cab:
    """What money out asks of the cabinet."""

    def __init__(self):
        self.tilts = {}

    def set_tilt(self, kind, why):
        self.tilts[kind] = why

    def disrupted(self, why):
        self.tilts["disrupted"] = why

    def show(self):
        pass


def _open(nv, w, fresh=False):
    gc.collect()
    led = Ledger(memory(nv))
    led.open()
    if not fresh:
        led.power_up()
    m = master(w, timeout_ms=100)
    logs = []
    h = Hopper(m, _Store(led.hopper_record, led.save_hopper_record), log=logs.append)
    return led, m, HopperOut(h, led, Config(), Screen(), m.now, logs.append), logs


def _passes(w, m, out, cab, n):
    for _ in range(n):
        out.service(cab)
        m.now.advance(10)
        w.release()


def _set_up(tokens):
    """Fresh books, a hopper set up a step a pass (no wait), `tokens` credited."""
    nv = wiped(NVRAM)
    w = Slow()
    hop = w.devices[3] = FakeHopper(per_poll=1)
    led, m, out, logs = _open(nv, w, fresh=True)
    cab = Cab()
    _passes(w, m, out, cab, 20)
    assert out.ok and m.waits == []
    led.accept(tokens * TOKEN)
    return nv, w, hop, led, m, out, logs, cab


def test_a_set_up_that_fails_with_a_payout_left_armed_pays_nothing_by_hand():
    nv, w, hop, led, m, out, logs, cab = _set_up(3)
    out.cashout(cab)
    _passes(w, m, out, cab, 4)  # 166, 168: the record saved armed with the mark, the 167 out
    assert hop.counter == 1 and led.hopper_record()["st"] == "armed" and m.waits == []
    # the logic board restarts; at its set-up the address answers a simple poll but is no hopper
    # (HopperError), then a timeout: the armed payout is the driver's, not a hand pay
    w.held = b""
    led, m, out, logs = _open(nv, w)
    assert led.paying is not None
    w.devices[3] = Acceptor()
    n = len(w.sent)
    _passes(w, m, out, cab, 20)
    assert w.headers(3)[-1] == 245 and len(w.sent) > n and not out.ok  # its category: refused
    w.devices.pop(3)
    m.now.advance(HOPPER_RETRY_MS)
    _passes(w, m, out, cab, 60)
    assert not out.ok and led.lock is None and led.paying is not None, (led.lock, logs)
    w.devices[3] = hop  # back: the payout proved from its counters and booked once
    m.now.advance(HOPPER_RETRY_MS)
    _passes(w, m, out, cab, 60)
    assert out.ok and led.paying is None and led.lock is None and m.waits == [], logs
    assert hop.out == 3 and hop.counter == 1 and led.meters["hopper_out"] == 3 * TOKEN and led.credits == 0


def test_a_failed_reading_before_the_record_is_saved_is_a_hand_pay():
    nv, w, hop, led, m, out, logs, cab = _set_up(2)
    w.devices.pop(3)  # unplugged as the cash-out starts
    out.cashout(cab)
    assert led.paying is not None
    _passes(w, m, out, cab, 60)
    assert led.lock == {"kind": "handpay", "amount": 2 * TOKEN} and led.paying is None, logs
    assert led.hopper_record() is None and hop.counter == 0 and m.waits == []
    assert "hopper refused the payout (timeout): hand pay" in logs
