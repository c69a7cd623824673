# Tournament mode (s. 123-127): entry fees instead of wagers, scores, prizes >= 30 % of fees.
# mp-heap: 512K  (the firmware's 256K, the 68 KB NVRAM image the test keeps in RAM and up to three
# ledgers at once; with the games' model reader and limits compiled from source too 448K was short)
import gc

from devtest import raises
from fakes_firmware import FixedOutcome, RamNvram, memory, wiped

from firmware import tournament
from firmware.ledger import Ledger

# one part, wiped for each test: made while the heap is in one piece (a fresh 68 KB block per test
# depended on how the heap lay; it failed at 384K and 448K and passed at 416K once the games' model
# reader and limits were compiled from source too)
NVRAM = RamNvram(69632)


def fresh():
    gc.collect()
    nv = wiped(NVRAM)
    led = Ledger(memory(nv))
    led.open()
    return nv, led


def reload(nv):
    gc.collect()  # the ledgers of earlier reloads, before a new one takes its buffers
    led = Ledger(memory(nv))
    led.open()
    return led


def play_entry(led, awards):
    led.tour_enter()
    for a in awards:
        led.wager(1)
        led.settle(FixedOutcome(1, a), "g")


def test_prize_pool_below_thirty_percent_is_refused():
    with raises(tournament.TournamentError):
        tournament.new(20, 100, 3, 29, "2026-12-05", 6)
    assert tournament.new(20, 100, 3, 30, "2026-12-05", 6)["pct"] == 30


def test_pool_rounds_up_and_prizes_sum_to_it():
    t = tournament.new(7, 10, 1, 30, "2026-12-05", 6)
    t["fees"] = 7 * 7  # 49 credits of fees: 30 % is 14.7 -> 15, never below the promise
    assert tournament.pool(t) == 15
    for entry, score in ((1, 5), (2, 9), (3, 9), (4, 1)):
        tournament.record_score(t, entry, score)
    prizes = tournament.allocate(t)
    assert [p[0] for p in prizes] == [2, 3, 1]  # best first, ties to the earlier entry
    assert sum(p[2] for p in prizes) == 15


def test_entries_play_with_tournament_credits_not_money():
    nv, led = fresh()
    led.accept(40)
    led.tour_start(fee=10, credits=5, games=3, pct=50, date="2026-12-05", hours=6)
    play_entry(led, [0, 4, 0])  # 5 - 3 + 4 = 6
    assert led.session is None and led.tour["scores"] == [[6, 1]]
    play_entry(led, [0, 0, 0])  # 2
    again = reload(nv)
    m = again.meters
    assert again.credits == 20  # only the two fees left the credit meter
    assert m["coin_in"] == 0 and m["coin_out"] == 0
    assert m["games_played"] == 6  # tournament games are games: counted and on the hard meter
    assert m["tournament_entries"] == 2 and m["tournament_fees"] == 20
    again.audit()
    assert again.recall()[-1]["tour"] == 2
    prizes = again.tour_end()
    assert prizes[0][:2] == (1, 6)
    assert sum(p[2] for p in prizes) == 10  # 50 % of 20 credits of fees
    assert reload(nv).meters["tournament_prizes"] == 10
    assert reload(nv).tour is None


def test_entry_needs_the_fee_and_one_entry_at_a_time():
    nv, led = fresh()
    led.accept(5)
    led.tour_start(10, 5, 2, 30, "2026-12-05", 6)
    with raises(ValueError):
        led.tour_enter()
    led.accept(10)
    led.tour_enter()
    with raises(tournament.TournamentError):
        led.tour_enter()
    with raises(tournament.TournamentError):
        led.tour_end()


def test_a_cut_mid_entry_resumes_the_same_entry():
    nv, led = fresh()
    led.accept(10)
    led.tour_start(10, 5, 3, 30, "2026-12-05", 6)
    led.tour_enter()
    led.wager(1)
    again = reload(nv)  # power cut after the wager
    assert again.session == {"entry": 1, "credits": 4, "left": 2}
    again.settle(FixedOutcome(1, 2), "g")
    assert reload(nv).session["credits"] == 6


def test_void_of_a_tournament_game_returns_its_credits_and_game():
    nv, led = fresh()
    led.accept(10)
    led.tour_start(10, 5, 3, 30, "2026-12-05", 6)
    led.tour_enter()
    led.wager(2)
    led.void("rng failure")
    assert reload(nv).session == {"entry": 1, "credits": 5, "left": 3}


def test_rules_show_every_element_of_s125_in_french_and_english():
    # s. 125: "the date of the event, its length, the rules of participation, the method of prize
    # allocation as well as the prizes to be won"
    t = tournament.new(10, 500, 20, 40, "2026-12-05", 6, "Coupe des Fetes")
    t["fees"] = 50
    en = " ".join(tournament.rules(t, "en"))
    fr = " ".join(tournament.rules(t, "fr"))
    for text in (en, fr):
        assert "2026-12-05" in text and "6 h" in text and "Coupe des Fetes" in text  # date, length
        assert "10 cr" in text  # participation: the fee
        assert "500" in text and "50 % / 30 % / 20 %" in text  # credits, allocation shares
        assert "40 %" in text and " 20 cr" in text  # prizes: 40 % of 50 credits of fees
    assert "20 games" in en and "20 parties" in fr  # participation: games per entry
    assert "entry fee 10 credits" in en and "no cash value" in en and "ties go to the earlier entry" in en
    assert "droit d'entrée de 10 crédits" in fr and "sans valeur monétaire" in fr and "plus ancienne" in fr


def test_tournament_figures_are_bounded_so_the_state_always_fits():
    for args in ((1, 10 ** 56 - 1, 1, 30, "2026-12-05", 6), (0, 10, 1, 30, "2026-12-05", 6),
                 (10, 10, 1001, 30, "2026-12-05", 6), (10, 10, 1, 30, "2026-02-30", 6),
                 (10, 10, 1, 30, "2026-12-05", 0), (10, 10, 1, 30, "5/12/2026", 6),
                 (10, 10, 1, 101, "2026-12-05", 6)):
        with raises(tournament.TournamentError):
            tournament.new(*args)
    with raises(tournament.TournamentError):
        tournament.new(10, 10, 1, 30, "2026-12-05", 6, "x" * 21)
    assert tournament.new(10, 10, 1, 30, "2028-02-29", 720)["hours"] == 720  # a leap day
