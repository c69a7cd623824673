# The electromechanical meters across a RAM clear (issue 9, fault 8: their known positions kept, the
# clear waits for a stroke on its way) and tournament games on them (fault 9). The real Cabinet and
# Ledger over a fake board (tests/device/power_cycle.py).
# mp-heap: 640K  (the firmware's 256K, the 68 KB NVRAM image the fake board keeps in RAM, and
# the modules compiled from source: at 384K and 448K their compiling found no room in one piece)
from power_cycle import SEPT, coins, new_board, power_on, press, steps


# --- fault 8: a RAM clear keeps the hard meters' positions ----------------------------------------------
def ram_clear(cab, who="tech"):
    """The technician's RAM clear as the console asks it: through the state table, audit key on."""
    from firmware import states

    return cab.handle(states.RAMCLEAR, who)


def cash_out_by_hand(cab):
    """The audit key on, the cash-out is a hand pay (never the hopper); the attendant pays it."""
    cab.board.pins["key_audit"].value(1)
    steps(cab, 5)
    press(cab, "cashout")
    press(cab, "key_reset")
    assert cab.ledger.credits == 0 and cab.state == "service", cab.state


def test_ram_clear_keeps_the_hard_meters_known_positions():
    board = new_board()
    cab = power_on(board, SEPT, em=True)
    coins(cab, 5)
    steps(cab, 200)
    assert board.coils["meter_drop"].rises == 20 and cab.em.done("meter_drop") == 20
    cash_out_by_hand(cab)
    steps(cab, 200)  # the 20 cancelled credits stroke the jackpot meter first
    assert board.coils["meter_jackpot"].rises == 20
    assert ram_clear(cab)
    cab = power_on(board, SEPT, em=True)  # a power cycle: the coils' record read from the cleared books
    board.pins["key_audit"].value(0)
    steps(cab, 20)
    assert "meter" not in cab.tilts and cab.state == "idle"
    assert cab.em.done("meter_drop") == 20  # the record still says where the counter stands
    coins(cab, 1)
    steps(cab, 60)
    assert board.coils["meter_drop"].rises == 24 and cab.em.done("meter_drop") == 24
    assert cab.ledger.meters["acceptor_in"] == 4


# --- fault 9: tournament games are games -----------------------------------------------------------------
def test_tournament_games_are_counted_and_metered():
    board = new_board()
    cab = power_on(board, SEPT, em=True)
    coins(cab, 3)
    cab.ledger.tour_start(8, 10, 2, 40, "2026-12-05", 6)
    press(cab, "play")
    press(cab, "play")
    steps(cab, 40)
    assert cab.ledger.meters["games_played"] == 2 and cab.ledger.recall()[-1]["n"] == 2
    assert board.coils["meter_games"].rises == 2


def test_ram_clear_waits_for_a_stroke_on_its_way():
    from devtest import raises

    board = new_board()
    cab = power_on(board, SEPT, em=True)
    coins(cab, 1)  # four strokes to drive on the drop meter
    steps(cab, 60)
    cash_out_by_hand(cab)  # four strokes to drive on the jackpot meter
    cab.step(1)
    assert cab.em.busy()
    with raises(ValueError):
        ram_clear(cab)
    assert cab.ledger.meters["cancelled"] == 4  # nothing cleared
    steps(cab, 60)
    assert ram_clear(cab)
    assert cab.ledger.meters["cancelled"] == 0 and cab.ledger.em_base()["meter_drop"] == 4
    assert cab.ledger.em_base()["meter_jackpot"] == 4
