# The cabinet follows its state table (firmware/states.py): in every state it can be driven to over
# a fake board, and in the postures that reach a state by more than one road (the audit key turned
# while a door is open, a tilt, a dealt hand, a lock ...), every event the table refuses changes
# nothing, and every event it takes does what the table names. The table's own promises are checked
# too: cash-out everywhere but a RAM error, play only in idle/credit, money only in idle/credit/spin,
# the RAM clear only in a RAM error or with the audit key on and nothing owed (issue 22, item 2:
# L-6, r. 3, s. 7, nothing but a coupon erases credits). And docs/firmware.md shows this table.
# mp-heap: 768K  (the firmware compiled from source by the stock 64-bit wheel, plus the 68 KB NVRAM image
# the fake board keeps in RAM)
import gc
import json

from fakes_cabinet import Acceptor, Board, make_cabinet
from fakes_firmware import RamNvram, memory

import rng
from firmware import states
from firmware.cabinet import Cabinet
from firmware.ledger import Ledger
from firmware.play import GamePlay
from firmware.play_keno import KenoPlay
from firmware.play_poker import PokerPlay
from firmware.play_table import TablePlay
from games import load

MODEL = "games/models/sept-royal-87.json"
POKER = "games/models/jacks-98.json"
GAME = [None]
POKER_GAME = [None]
NVRAM = RamNvram(69632)  # one image, wiped for each cabinet: 64 KB blocks fragment a fixed heap
_ZERO = bytes(1024)
WHO = "tech1"


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
    cab = make_cabinet(board, led, game, rng.open_generator(rng.open_source("emulated")), Acceptor())
    cab.resume()
    if credits:
        led.accept(credits)
    cab.step(0)
    return cab


def settle(cab):
    for _ in range(8):
        cab.step(10)  # debounce the switches; the spin is still turning (SPIN_MS)


# Each posture: (name, the state it must be, credits to start with, a poker game?, what puts the
# cabinet there, the way the real world would). Several reach one state by different roads: the
# audit key turned in each state, the issue's "door open and the audit key on".
def _ramerror(cab):
    cab.set_ram_error("both copies of state are bad")


def _handpay(cab):
    cab.ledger.cashout(hand_pay=True)


def _jackpot(cab):
    cab.ledger.st["lock"] = {"kind": "jackpot", "amount": 1500}


def _payout(cab):
    cab.ledger.start_payout(2, 4)


def _spin(cab):
    cab.ledger.wager(1, None, cab.game.id)
    cab.gameplay.draw_and_settle(cab, 1)


def _door(cab):
    cab.board.pins["door_main"].value(1)


def _tilt(cab):
    cab.set_tilt("fraud", "coin fraud code 5")


def _audit_tilt(cab):
    cab.ledger.st["credits"] += 7  # credits that did not come through the meters
    cab.handle(states.PLAY)  # the wager's self-audit finds them: the audit tilt
    assert "audit" in cab.tilts


def _hold(cab):
    cab.handle(states.PLAY)  # video poker: dealt, the hand waits for its holds and the draw


def _key(cab):
    cab.board.pins["key_audit"].value(1)


def _note(cab):
    cab.ledger.bill_escrow(3, 80, 1)  # a $20 note committed as pending, not yet stacked


def _tournament(cab):
    cab.ledger.tour_start(8, 10, 2, 40, "2026-12-05", 6)


def _both(*fns):
    def run(cab):
        for fn in fns:
            fn(cab)
    return run


POSTURES = (
    ("ramerror", states.RAMERROR, 8, False, _ramerror),
    ("ramerror, audit key", states.RAMERROR, 8, False, _both(_ramerror, _key)),
    ("handpay", states.HANDPAY, 8, False, _handpay),
    ("handpay, audit key", states.HANDPAY, 8, False, _both(_handpay, _key)),
    ("jackpot", states.JACKPOT, 8, False, _jackpot),
    ("jackpot, audit key", states.JACKPOT, 8, False, _both(_jackpot, _key)),
    ("payout", states.PAYOUT, 8, False, _payout),
    ("payout, audit key", states.PAYOUT, 8, False, _both(_payout, _key)),
    ("spin", states.SPIN, 8, False, _spin),
    ("spin, audit key", states.SPIN, 8, False, _both(_spin, _key)),
    ("service", states.SERVICE, 0, False, _key),
    ("service, door open, tilt", states.SERVICE, 0, False, _both(_door, _tilt, _key)),
    ("door", states.DOOR, 8, False, _door),
    ("door, audit key, credits", states.DOOR, 8, False, _both(_door, _key)),  # issue 22's case
    ("tilt", states.TILT, 8, False, _tilt),
    ("audit tilt, audit key, credits", states.TILT, 8, False, _both(_audit_tilt, _key)),
    ("hold", states.HOLD, 8, True, _hold),
    ("hold, audit key", states.HOLD, 8, True, _both(_hold, _key)),
    ("hold, door, audit key", states.DOOR, 8, True, _both(_hold, _door, _key)),
    ("audit", states.AUDIT, 8, False, _key),
    ("audit, note in escrow", states.AUDIT, 0, False, _both(_note, _key)),
    ("audit, tournament", states.AUDIT, 0, False, _both(_tournament, _key)),
    ("credit", states.CREDIT, 8, False, None),
    ("idle", states.IDLE, 0, False, None),
)


def into(name):
    """A fresh cabinet driven into the posture `name`."""
    for pname, state, credits, poker, setup in POSTURES:
        if pname == name:
            cab = cabinet(credits, poker)
            if setup is not None:
                setup(cab)
            settle(cab)
            assert cab.state == state, (name, state, cab.state)
            return cab
    raise KeyError(name)


def books(cab):
    """Everything a refused event must leave as it was: the books (a deep copy), the bytes written
    to critical memory (a refused event commits nothing), the tilts, the kept cash-out, the holds,
    the player's message and the last test game."""
    led = cab.ledger
    st = json.loads(json.dumps(led.st)) if led.st is not None else None
    return (st, led.mem.bytes_written, cab.ram_error, dict(cab.tilts), cab._cashout_asked,
            getattr(cab.gameplay, "holds", 0), cab.screen.message, cab.tested)  # the holds: a poker game's


def test_the_table_keeps_its_promises():
    play = states.PLAY_STATES
    for s in states.STATES:
        taken = [ev for ev in states.EVENTS if states.action(s, ev)]
        assert (states.CASHOUT in taken) == (s != states.RAMERROR), s  # credits are the player's
        assert (states.KEY in taken) == (s != states.RAMERROR), s
        assert (states.PLAY in taken) == (s in play + (states.HOLD,)), s
        assert (states.BET in taken) == (states.MAX in taken) == (states.DEAL in taken) == (s in play), s
        for ev in (states.SPOT, states.QUICK, states.CLEAR):  # keno's card: only between games
            assert (ev in taken) == (s in play), (s, ev)
        for ev in (states.HOLD_KEY, states.AUTO, states.DRAW):
            assert (ev in taken) == (s == states.HOLD), (s, ev)
        assert (states.TEST in taken) == (s in (states.AUDIT, states.SERVICE)), s
        # L-6, r. 3, s. 7: the RAM clear only where nothing is owed, or nothing can be read
        assert (states.RAMCLEAR in taken) == (s in (states.RAMERROR, states.SERVICE)), s
        assert (states.COUPON in taken) == (s == states.CREDIT), s  # credits reached the automatic coupon
        if s == states.RAMERROR:
            assert taken == [states.RAMCLEAR]
    for key in states.TABLE:
        assert key[0] in states.STATES and key[1] in states.EVENTS, key
        name = states.TABLE[key]
        if name in states.PLAY_ACTIONS:  # the game's play's: one of the families has it, the cabinet not
            assert not hasattr(Cabinet, name), name
            assert [c for c in (GamePlay, KenoPlay, PokerPlay, TablePlay) if hasattr(c, name)], name
        else:
            assert hasattr(Cabinet, name), name
    for name in states.PLAY_ACTIONS:
        assert name in states.TABLE.values(), name
    assert len(set(states.STATES)) == len(states.STATES) and len(set(states.EVENTS)) == len(states.EVENTS)
    assert set(states.MONEY_STATES) == {states.IDLE, states.CREDIT, states.SPIN}
    assert states.action(states.HOLD, states.CASHOUT) == "keep_cashout"  # a dealt hand is drawn first


def test_derive_spells_the_priority_once():
    # every overriding condition set: the highest one wins, and each in turn when the ones above go
    # args: ram_error, lock_kind, paying, spinning, door_open, tilted, audit_key, credits, hand_open, owed
    args = [True, "handpay", True, True, True, True, True, 5, True, True]
    order = []
    for i in (0, 1, 2, 3, 4, 5, 8, 6):
        order.append(states.derive(*args))
        args[i] = None if i == 1 else False
    order.append(states.derive(*args))
    args[7] = 0
    order.append(states.derive(*args))
    assert order == [states.RAMERROR, states.HANDPAY, states.PAYOUT, states.SPIN, states.DOOR, states.TILT,
                     states.HOLD, states.AUDIT, states.CREDIT, states.IDLE]
    # SERVICE: the audit key with nothing owed, above a door and a tilt; anything owed keeps it out
    assert states.derive(False, None, False, False, True, True, True, 0, False, False) == states.SERVICE
    assert states.derive(False, None, False, False, True, True, True, 1, False, False) == states.DOOR
    assert states.derive(False, None, False, False, True, True, True, 0, True, False) == states.DOOR
    assert states.derive(False, None, False, False, False, True, True, 0, False, True) == states.TILT
    assert states.derive(False, None, False, False, False, False, True, 0, False, True) == states.AUDIT
    assert states.derive(False, None, False, True, False, False, True, 0, False, False) == states.SPIN
    assert states.derive(False, None, False, False, False, False, False, 0, False, False) == states.IDLE


def test_refused_events_change_nothing_in_any_state():
    seen = set()
    for name, state, _, _, _ in POSTURES:
        cab = into(name)
        seen.add(state)
        for ev in states.EVENTS:
            if states.action(state, ev) is not None:
                continue
            before = books(cab)
            assert cab.handle(ev, WHO) is False, (name, ev)
            assert books(cab) == before and cab.state == state, (name, ev)
        cab = None
    assert seen == set(states.STATES)  # every state, by at least one road


def test_the_issues_case_door_open_and_audit_key_the_ram_clear_is_refused():
    # issue 22, item 2: with a door open and the audit key on, the console cleared whatever the table said
    cab = into("door, audit key, credits")
    before = books(cab)
    assert cab.handle(states.RAMCLEAR, WHO) is False
    assert books(cab) == before and cab.ledger.credits == 8
    assert cab.why_refused(states.RAMCLEAR) == "RAM clear refused: 8 credits on the meter: cash them out first"


def test_a_ram_clear_is_refused_while_anything_is_owed_and_says_what():
    owed = (
        ("audit", "8 credits on the meter: cash them out first"),
        ("handpay, audit key", "a hand pay of 8 credits waits for the attendant's key"),
        ("jackpot, audit key", "a jackpot of 1500 credits waits for the attendant's key"),
        ("payout, audit key", "the hopper is paying a cash-out"),
        ("spin, audit key", "a game is in progress"),
        ("hold, audit key", "a dealt hand waits for the draw"),
        ("hold, door, audit key", "a dealt hand waits for the draw"),
        ("audit tilt, audit key, credits", "15 credits on the meter: cash them out first"),
        ("audit, note in escrow", "a note is in escrow"),
        ("audit, tournament", "a tournament is running: 'tournament end' pays its prizes first"),
    )
    for name, why in owed:
        cab = into(name)
        before = books(cab)
        assert cab.handle(states.RAMCLEAR, WHO) is False, name
        assert books(cab) == before, name
        assert cab.why_refused(states.RAMCLEAR) == "RAM clear refused: " + why, (name, cab.why_refused(states.RAMCLEAR))
        cab = None
    cab = into("credit")
    assert cab.why_refused(states.RAMCLEAR) == "turn the audit key first"


def test_a_ram_clear_is_taken_with_nothing_owed_and_says_which_kind():
    cab = into("service, door open, tilt")
    assert cab.handle(states.RAMCLEAR, WHO)
    evs = cab.ledger.events()
    assert len(evs) == 1 and evs[0][2:] == ["ramclear", "by tech1, audit key, nothing owed; tilt fraud"]
    assert not cab.tilts and cab.state == states.SERVICE  # the key still on, the door still open
    cab = into("ramerror")
    cab.board.pins["key_audit"].value(1)
    settle(cab)
    assert cab.handle(states.RAMCLEAR, WHO)
    evs = cab.ledger.events()
    assert evs[0][2:] == ["ramclear", "by tech1 after RAM error: both copies of state are bad"]
    assert cab.ledger.credits == 0 and cab.state == states.SERVICE


def test_the_audit_tilt_cashes_out_by_hand_then_the_ram_clear_ends_it():
    # the books disagree (credits 15, meters 8): the credit meter is still the player's, paid by hand
    # as it stands, and only then does the RAM clear that ends the tilt go through
    cab = into("audit tilt, audit key, credits")
    assert cab.handle(states.RAMCLEAR, WHO) is False
    assert cab.handle(states.CASHOUT)
    assert cab.state == states.HANDPAY and cab.ledger.lock == {"kind": "handpay", "amount": 15}
    assert cab.ledger.events()[-1][2:] == ["handpay", "cash-out of 15 credits by hand under the audit tilt"]
    assert cab.handle(states.KEY)  # the attendant pays it
    assert cab.ledger.credits == 0 and cab.ledger.meters["cancelled"] == 15
    assert "audit" in cab.tilts and cab.state == states.SERVICE  # the key never clears the audit tilt
    assert cab.handle(states.RAMCLEAR, WHO)
    assert cab.ledger.events()[0][3] == "by tech1, audit key, nothing owed; tilt audit"
    assert not cab.tilts and cab.ledger.meters["cancelled"] == 0


def test_taken_events_do_what_the_table_says():
    for name, state, _, _, _ in POSTURES:
        cab = into(name)
        credits = cab.ledger.credits if cab.ledger.st else None
        assert cab.handle(states.CASHOUT) is (state != states.RAMERROR), name
        method = states.action(state, states.CASHOUT)
        if method == "keep_cashout" or cab.gameplay.hand_open():
            assert cab._cashout_asked and books(cab) is not None, name  # kept for later
        elif state != states.RAMERROR:
            assert cab.ledger.credits == 0 or cab.ledger.lock["kind"] == "handpay" or cab.ledger.paying, name
            assert credits > 0 or state in (states.IDLE, states.SERVICE) or cab.ledger.owed(), name
            if method == "cashout_by_hand" and credits:  # a door open, the audit key on: never the hopper
                assert cab.ledger.lock == {"kind": "handpay", "amount": credits}, name
        cab = None
    checks = (
        ("credit", states.PLAY, lambda c: c.ledger.meters["games_played"] == 1),
        ("credit", states.DEAL, lambda c: c.ledger.meters["games_played"] == 1),
        ("credit", states.MAX, lambda c: c.ledger.meters["coin_in"] == c.game.bets[-1]),
        ("idle", states.BET, lambda c: c.ledger.bet == c.game.bets[1]),
        ("jackpot", states.KEY, lambda c: c.ledger.meters["jackpot"] == 1500 and c.state == states.CREDIT),
        ("tilt", states.KEY, lambda c: not c.tilts and c.state == states.CREDIT),
        ("service, door open, tilt", states.KEY, lambda c: not c.tilts and c.state == states.SERVICE),
        ("hold", states.AUTO,
         lambda c: c.gameplay.holds == c.game.suggest(c.gameplay.hand_deck()[:5]) and c.state == states.HOLD),
        ("hold", states.PLAY, lambda c: c.ledger.game["phase"] in ("spin", "done") and len(c.ledger.recall()) == 1),
        ("hold", states.DRAW, lambda c: c.ledger.game["phase"] in ("spin", "done") and len(c.ledger.recall()) == 1),
    )
    for name, ev, ok in checks:
        cab = into(name)
        assert cab.handle(ev) and ok(cab), (name, ev)
        cab = None
    cab = into("hold")
    assert cab.handle(states.HOLD_KEY, 2) and cab.gameplay.holds == 2 and cab.state == states.HOLD
    for name in ("audit", "service"):
        cab = into(name)
        before = books(cab)
        assert cab.handle(states.TEST) and cab.tested is not None
        cab.tested = None
        assert books(cab) == before  # a test game never touches the meters


def test_the_docs_show_this_table():
    # docs/firmware.md's block is written by tools.state_table; this reads it back on its own (a
    # parser, not the writer) and compares every row with TABLE: same states in priority order, the
    # same events taken with the same methods, none more, none less, and the money column
    rows = []
    inside = False
    with open("docs/firmware.md") as f:  # line by line: the page is larger than the heap has in one piece
        for line in f:
            if line.startswith("<!-- state-table"):
                inside = True
            elif line.startswith("<!-- /state-table"):
                break
            elif inside and line.startswith("| `"):
                rows.append(line.strip())
    order = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 3, row
        s = cells[0].strip("`")
        order.append(s)
        shown = {}
        if cells[1] != "—":
            for item in cells[1].split("; "):
                ev, method = item.split(" → ")
                assert ev.strip("`") not in shown, row
                shown[ev.strip("`")] = method
        held = {}
        for (state, ev), method in states.TABLE.items():
            if state == s:
                held[ev] = method
        assert shown == held, (s, shown, held)
        assert cells[2] == ("yes" if s in states.MONEY_STATES else "no"), s
    assert order == list(states.STATES)


def test_a_ram_clear_keeps_the_tilts_found_at_power_up():
    # the game, config and software tilts (and the printer's) are read again from the world at every
    # power-up, not from the books: a RAM clear fixes none of them. A clear that dropped them let a
    # cabinet whose configuration was refused take coins again at once (its acceptor enabled in idle)
    cab = into("service")
    cab.set_tilt("config", "COINS: CA010A is worth 10 cents, not a whole number of 25-cent credits")
    cab.set_tilt("fraud", "coin fraud code 5")  # in the books: the clear takes it with them
    settle(cab)
    assert cab.state == states.SERVICE
    assert cab.handle(states.RAMCLEAR, WHO)
    assert cab.ledger.events()[0][3] == "by tech1, audit key, nothing owed; tilt config fraud"
    assert list(cab.tilts) == ["config"]
    cab.board.pins["key_audit"].value(0)
    settle(cab)
    assert cab.state == states.TILT and not cab.want_money()
