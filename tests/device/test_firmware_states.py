# The cabinet follows its state table (firmware/states.py): in every state it can be driven to over
# a fake board, every event the table refuses changes nothing, and every event it takes does what
# the table names. The table's own promises are checked too: cash-out everywhere but a RAM error,
# play only in idle/credit, money only in idle/credit/spin.
# mp-heap: 640K  (the firmware compiled from source by the stock 64-bit wheel, plus the 68 KB NVRAM image the fake board keeps in RAM)
import gc

import rng
from fakes_cabinet import Acceptor, Board
from fakes_firmware import RamNvram, memory
from firmware import states
from firmware.cabinet import Cabinet
from firmware.ledger import Ledger
from games import load

MODEL = "games/models/sept-royal-87.json"
POKER = "games/models/jacks-98.json"
GAME = [None]
POKER_GAME = [None]
NVRAM = RamNvram(69632)  # one image, wiped for each cabinet: 64 KB blocks fragment a fixed heap
_ZERO = bytes(1024)


def cabinet(credits=8, poker=False):
    gc.collect()
    for off in range(0, NVRAM.size, len(_ZERO)):
        NVRAM.mem[off:off + len(_ZERO)] = _ZERO
    NVRAM.counters = None  # a new machine: its anti-rollback counters too
    board = Board(NVRAM)
    led = Ledger(memory(board.nvram))
    led.open()
    if GAME[0] is None:
        GAME[0] = load(MODEL)
    game = GAME[0]
    if poker:
        if POKER_GAME[0] is None:
            POKER_GAME[0] = load(POKER)
        game = POKER_GAME[0]
    cab = Cabinet(board, led, game, rng.open_generator(rng.open_source("emulated")), Acceptor(), log=lambda m: None)
    cab.resume()
    if credits:
        led.accept(credits)
    cab.step(0)
    return cab


def into(state):
    """A fresh cabinet driven into `state` the way the real world would put it there."""
    cab = cabinet(0 if state == states.IDLE else 8, state == states.HOLD)
    b = cab.board
    if state == states.RAMERROR:
        cab.set_ram_error("both copies of state are bad")
    elif state == states.HANDPAY:
        cab.ledger.cashout(hand_pay=True)
    elif state == states.JACKPOT:
        cab.ledger.st["lock"] = {"kind": "jackpot", "amount": 1500}
    elif state == states.PAYOUT:
        cab.ledger.start_payout(2, 4)
    elif state == states.SPIN:
        cab.ledger.wager(1, None, cab.game.id)
        cab._draw_and_settle(1)
    elif state == states.DOOR:
        b.pins["door_main"].value(1)
    elif state == states.TILT:
        cab.set_tilt("fraud", "coin fraud code 5")
    elif state == states.AUDIT:
        b.pins["key_audit"].value(1)
    elif state == states.HOLD:
        cab.handle(states.PLAY)  # video poker: dealt, the hand waits for its holds and the draw
    for _ in range(8):
        cab.step(10)  # debounce the switches; the spin is still turning (SPIN_MS)
    assert cab.state == state, (state, cab.state)
    return cab


def books(cab):
    led = cab.ledger
    if led.st is None:
        return None
    return (dict(led.st["m"]), led.st["credits"], led.st["bet"], led.st.get("lock"), led.st.get("paying"))


def test_the_table_keeps_its_promises():
    for s in states.STATES:
        assert (states.action(s, states.CASHOUT) is None) == (s == states.RAMERROR), s
        assert (states.action(s, states.PLAY) is not None) == (s in states.PLAY_STATES + (states.HOLD,)), s
        assert (states.action(s, states.HOLD_KEY) is not None) == (s == states.HOLD), s
        assert (states.action(s, states.KEY) is None) == (s == states.RAMERROR), s
    assert states.action(states.CREDIT, states.TEST) is None and states.action(states.AUDIT, states.TEST)
    for key in states.TABLE:
        assert key[0] in states.STATES and key[1] in states.EVENTS
        assert hasattr(Cabinet, states.TABLE[key]), states.TABLE[key]
    assert set(states.MONEY_STATES) == {states.IDLE, states.CREDIT, states.SPIN}
    assert states.HOLD in states.CASHOUT_WAITS  # a dealt hand is drawn before the cash-out


def test_derive_spells_the_priority_once():
    # every overriding condition set: the highest one wins, and each in turn when the ones above go
    args = [True, "handpay", True, True, True, True, True, 5, True]
    order = []
    for i in (0, 1, 2, 3, 4, 5, 8, 6):
        order.append(states.derive(*args))
        args[i] = None if i == 1 else False
    order.append(states.derive(*args))
    args[7] = 0
    order.append(states.derive(*args))
    assert order == [states.RAMERROR, states.HANDPAY, states.PAYOUT, states.SPIN, states.DOOR, states.TILT,
                     states.HOLD, states.AUDIT, states.CREDIT, states.IDLE]


def test_refused_events_change_nothing_in_any_state():
    for s in states.STATES:
        for ev in states.EVENTS:
            if states.action(s, ev) is not None or ev in (states.TEST, states.RAMCLEAR):
                continue
            cab = into(s)
            before = books(cab)
            assert cab.handle(ev) is False
            assert books(cab) == before and cab.state == s, (s, ev)
            cab = None


def test_taken_events_do_what_the_table_says():
    for s in states.STATES:
        cab = into(s)
        credits = cab.ledger.credits if cab.ledger.st else None
        assert cab.handle(states.CASHOUT) is (s != states.RAMERROR)
        if s in states.CASHOUT_WAITS:
            assert cab._cashout_asked and books(cab) is not None  # kept for later
        elif s != states.RAMERROR:
            assert cab.ledger.credits == 0 or cab.ledger.lock["kind"] == "handpay" or cab.ledger.paying, s
            assert credits > 0 or s == states.IDLE
        cab = None
    checks = (
        (states.CREDIT, states.PLAY, lambda c: c.ledger.meters["games_played"] == 1),
        (states.CREDIT, states.MAX, lambda c: c.ledger.meters["coin_in"] == c.game.bets[-1]),
        (states.IDLE, states.BET, lambda c: c.ledger.bet == c.game.bets[1]),
        (states.JACKPOT, states.KEY, lambda c: c.ledger.meters["jackpot"] == 1500 and c.state == states.CREDIT),
        (states.TILT, states.KEY, lambda c: not c.tilts and c.state == states.CREDIT),
        (states.HOLD, states.AUTO, lambda c: c.holds == c.game.suggest(c.hand_deck()[:5]) and c.state == states.HOLD),
        (states.HOLD, states.PLAY, lambda c: c.ledger.game["phase"] in ("spin", "done") and len(c.ledger.recall()) == 1),
    )
    for s, ev, ok in checks:
        cab = into(s)
        assert cab.handle(ev) and ok(cab), (s, ev)
        cab = None
    cab = into(states.HOLD)
    assert cab.handle(states.HOLD_KEY, 2) and cab.holds == 2 and cab.state == states.HOLD
    cab = into(states.AUDIT)
    before = books(cab)
    assert cab.handle(states.TEST) and books(cab) == before  # a test game never touches the meters


def test_the_docs_show_this_table():
    rows = []
    inside = False
    with open("docs/firmware.md") as f:  # line by line: the page is larger than the heap has in one piece
        for line in f:
            if line.startswith("<!-- state-table"):
                inside = True
            elif line.startswith("<!-- /state-table"):
                break
            elif inside and line.startswith("| `"):
                rows.append(line)
    seen = 0
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        s = cells[0].strip("`")
        for ev, cell in zip(states.EVENTS, cells[1:]):
            assert cell == (states.action(s, ev) or "—"), (s, ev, cell)
        assert cells[-1] == ("yes" if s in states.MONEY_STATES else "no"), s
        seen += 1
    assert seen == len(states.STATES)
