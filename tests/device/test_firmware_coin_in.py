# Money in (firmware/coin_in.py) over the real ccTalk driver and a byte-level fake acceptor: coins
# credited by ccTalk identity only (s. 4), positions enabled by identity, refused credits named,
# replayed counters never credited twice, one commit per batch with its counter.
from fakes_board import Acceptor, Wire

from board.cctalk import Master
from board.coin_cctalk import CoinAcceptor
from firmware.coin_in import CoinIn
from firmware.hopper_out import payout_credits


class Cfg:
    COINS = {"CA100T": 100, "CA200T": 200}
    DENOM_CENTS = 25
    PAYOUT_COIN = ("CA100T", 100)
    ACCEPTOR_POLL_MS = 100


class Table(Acceptor):
    """The fake acceptor with a coin table (header 184) and one replayed 229 counter on demand."""

    def __init__(self, ids):
        Acceptor.__init__(self)
        self.ids = ids
        self.replay = 0

    def reply(self, header, data):
        if header == 184:
            return self.ids.get(data[0], "......").encode()
        r = Acceptor.reply(self, header, data)
        if header == 229 and self.replay:
            r = bytes(((self.counter - 1 - self.replay) % 255 + 1,)) + r[1:]
            self.replay = 0
        return r


class Ledger:
    def __init__(self):
        self.st = {}
        self.acceptor_counter = None
        self.credits = 0
        self.commits = []
        self.events = []

    def accept(self, credits, counter):
        self.commits.append((credits, counter))
        self.credits += credits
        if counter is not None:
            self.acceptor_counter = counter

    def event(self, kind, text):
        self.events.append((kind, text))


class Cab:
    """The callbacks the cabinet gives: money wanted unless tilted, tilts, disruptions, display."""

    def __init__(self):
        self.tilts = {}
        self.disruptions = []
        self.shown = 0

    def want_money(self):
        return not self.tilts

    def set_tilt(self, kind, why):
        self.tilts[kind] = why

    def disrupted(self, why):
        self.disruptions.append(why)

    def show(self):
        self.shown += 1


def rig(ids=None):
    w = Wire()
    dev = Table(ids or {1: "CA100T", 2: "US025A", 3: "CA200T"})
    w.devices[2] = dev
    led = Ledger()
    logs = []
    clock = [0]

    def idle(ms):  # a waiting request's idle moves the rig's clock
        clock[0] += ms

    coins = CoinIn(CoinAcceptor(Master(w, idle, timeout_ms=20, clock=lambda: clock[0])), led, Cfg, logs.append)
    cab = Cab()

    def tick():
        clock[0] += 100  # one poll period
        coins.service(clock[0], cab)

    tick()
    return dev, coins, led, cab, tick, logs


def test_only_listed_identities_are_enabled():
    dev, coins, led, cab, tick, logs = rig()
    assert coins.values == {1: 100, 3: 200}
    assert dev.mask == 0b101 and dev.master == 1  # position 2 (US025A) stays inhibited
    assert "coin position 2: US025A is not an accepted coin: inhibited" in logs


def test_listed_coins_are_credited_by_their_value():
    dev, coins, led, cab, tick, logs = rig()
    dev.event(1, 1)
    dev.event(3, 1)
    tick()
    # $1 = 4 credits and $2 = 8 credits of 25 cents, in one commit with the counter that ends them
    assert led.commits[-1] == (12, 2) and led.credits == 12 and cab.shown == 1
    tick()
    assert led.commits[-1] == (12, 2) and len(led.commits) == 2  # nothing new: no commit


def test_a_credit_from_an_unlisted_position_is_refused_and_named():
    dev, coins, led, cab, tick, logs = rig()
    dev.event(2, 1)  # the acceptor took a US quarter against the inhibit we set
    tick()
    assert led.credits == 0 and coins.refused == 1
    assert cab.tilts == {"acceptor": "coin refused: position 2 (US025A) is not an accepted coin"}
    assert led.acceptor_counter == 1  # its counter is committed: the refusal is not re-read
    tick()
    assert dev.master == 0  # no more money until the attendant's key


def test_a_coin_is_valued_by_its_identity_never_by_its_position():
    # before: position 1 was credited as the $1 token whatever the acceptor said it was
    dev, coins, led, cab, tick, logs = rig({1: "US025A", 4: "CA100T"})
    assert coins.values == {4: 100} and dev.mask == 0b1000
    dev.event(4, 1)
    dev.event(1, 1)
    tick()
    assert led.credits == 4 and cab.tilts == {"acceptor": "coin refused: position 1 (US025A) is not an accepted coin"}


def test_a_credit_from_a_position_with_no_identity_is_refused():
    dev, coins, led, cab, tick, logs = rig()
    dev.event(9, 1)
    tick()
    assert led.credits == 0 and cab.tilts["acceptor"] == "coin refused: position 9 (unknown) is not an accepted coin"


def test_replayed_counter_credits_nothing_and_tilts():
    for k in (1, 5, 6, 250):
        dev, coins, led, cab, tick, logs = rig()
        for _ in range(3):
            dev.event(1, 1)
        tick()
        assert led.credits == 12
        dev.replay = k
        for _ in range(5):
            tick()
        assert led.credits == 12, k  # before the fix: 24 at k = 1, 32 at k = 5 and 250
        assert cab.tilts["acceptor"].startswith("event counter out of sequence: was "), cab.tilts
        assert dev.master == 0
        cab.tilts = {}  # the attendant's key
        coins.clear_fault()
        tick()
        assert dev.master == 1
        dev.event(1, 1)
        tick()
        assert led.credits == 16, k  # the next real coin, once


def test_counter_jump_beyond_the_buffer_names_both_counters():
    dev, coins, led, cab, tick, logs = rig()
    dev.event(1, 1)
    tick()
    dev.counter = 7  # six steps on from 1, no new event
    tick()
    assert cab.tilts == {"acceptor": "event counter out of sequence: was 1, now 7"} and led.credits == 4


def test_fraud_disrupts_and_tilts():
    dev, coins, led, cab, tick, logs = rig()
    dev.event(0, 17)  # coin going backwards
    tick()
    assert cab.disruptions == ["coin fraud code 17"] and cab.tilts == {"fraud": "fraud 0/17"}


def test_an_acceptor_reset_reads_the_identities_again():
    dev, coins, led, cab, tick, logs = rig()
    dev.event(1, 1)
    tick()
    dev.counter, dev.events, dev.master = 0, [], 0  # power cycle, with a different coin table
    dev.ids = {1: "US025A", 2: "CA100T"}
    tick()
    assert ("acceptor", "acceptor reset (counter was 1)") in led.events
    tick()
    assert coins.values == {2: 100} and dev.mask == 0b10 and dev.master == 1
    dev.event(1, 1)
    tick()
    assert cab.tilts["acceptor"] == "coin refused: position 1 (US025A) is not an accepted coin"
    assert led.credits == 4


def test_bus_failure_sets_up_again_inhibited_first():
    dev, coins, led, cab, tick, logs = rig()
    w = coins.device.bus.uart
    w.devices.pop(2)  # unplugged
    tick()
    assert coins.ok and coins._asking  # the 229 is out; its silence is known in later passes
    for _ in range(3):  # its timeout, then each of the bus's two retries
        tick()
    assert not coins.ok and "acceptor: timeout" in logs
    mark = len(w.headers(2))
    for _ in range(8):  # still unplugged: two simple polls (254) with their retries, never the set-up
        tick()
    assert not coins.ok and set(w.headers(2)[mark:]) == {254}
    w.devices[2] = dev
    mark = len(w.headers(2))
    tick()
    assert coins.ok and dev.master == 1
    # the simple poll answered, then inhibit first (the counter is still known: no new baseline), the
    # 16 identities, enable, poll
    assert w.headers(2)[mark:] == [254, 231, 228] + [184] * 16 + [231, 228, 229]


def test_payout_coin_value_in_credits():
    assert payout_credits(Cfg) == 4  # $1 token, 25-cent credit

    class Big:
        PAYOUT_COIN = ("CA200T", 200)
        DENOM_CENTS = 25

    assert payout_credits(Big) == 8
