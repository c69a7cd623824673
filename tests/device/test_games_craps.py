# mp-heap: 384K  (the module's tests in one process, games' table code compiled from source; the round and
# the boot check in a board's 256K are test_games_table_bootmem.py's)
# Craps (issue 26; by-law s. 95.6-95.17), on both runtimes: rolls settled by hand from the by-law's
# rules and payouts, across rolls with the table (the point and the standing wagers); what works on a
# come-out roll and what does not; commissions; the stake's refusals by name; withdrawals; the pass
# and don't pass lines played through evaluate() over every roll until decided equal their
# certificate; the boot check recomputes every wager.
import json

from devtest import raises

from games.certificate import check
from games.craps import CrapsGame
from games.limits import ModelError
from games.model import read
from games.table_outcome import LOSE, PUSH, RETURNED, STAND, WIN


class Script:
    """randbits(k) from a list of values (each must be below the range asked for)."""

    def __init__(self, values):
        self.values = list(values)

    def randbits(self, k):
        return self.values.pop(0)


def _game():
    return CrapsGame(read("games/models/craps-83.json"))


def _res(o):
    return {r[0]: (r[2], r[3], r[4]) for r in o.results}


def test_the_pass_line_over_its_rolls():
    g = _game()
    o = g.evaluate({"pass": 5, "field": 1}, [2, 4])  # come-out 6: the point
    assert _res(o) == {"pass": (STAND, 0, "pass6"), "field": (LOSE, 0, None)}
    assert o.table == {"point": 6, "bets": {"pass6": 5}} and o.bet == 6 and o.award == 0
    o = g.evaluate({"odds6:pass": 25}, [4, 5], o.table)  # 9: nothing for the line; odds 5 x 5 allowed
    assert o.table == {"point": 6, "bets": {"pass6": 5, "odds6:pass": 25}} and o.award == 0
    o = g.evaluate({}, [3, 3], o.table)  # the point: 1 to 1 and 6 to 5
    assert _res(o) == {"pass6": (WIN, 10, None), "odds6:pass": (WIN, 25 + 30, None)}
    assert o.table == {"point": 0, "bets": {}} and o.award == 65 and o.window == {"dice": [3, 3], "total": 6, "point": 0}
    assert _res(g.evaluate({"pass": 5}, [5, 6])) == {"pass": (WIN, 10, None)}  # 11
    assert _res(g.evaluate({"pass": 5}, [1, 2])) == {"pass": (LOSE, 0, None)}  # 3
    o = g.evaluate({}, [3, 4], {"point": 6, "bets": {"pass6": 5}})  # seven out
    assert _res(o) == {"pass6": (LOSE, 0, None)} and o.table == {"point": 0, "bets": {}}


def test_dont_pass_bars_twelve():
    g = _game()
    assert _res(g.evaluate({"dont_pass": 5}, [6, 6])) == {"dont_pass": (PUSH, 5, None)}
    assert _res(g.evaluate({"dont_pass": 5}, [1, 2])) == {"dont_pass": (WIN, 10, None)}
    assert _res(g.evaluate({"dont_pass": 5}, [5, 6])) == {"dont_pass": (LOSE, 0, None)}
    o = g.evaluate({"dont_pass": 5}, [4, 6])
    assert o.table == {"point": 10, "bets": {"dont_pass10": 5}}
    o = g.evaluate({"dont_odds10:dont_pass": 20}, [6, 1], o.table)  # lay odds: 1 to 2, at most 6 x 5
    assert _res(o) == {"dont_pass10": (WIN, 10, None), "dont_odds10:dont_pass": (WIN, 30, None)}


def test_a_come_bet_moves_to_its_number_and_its_odds_are_off_on_a_come_out():
    g = _game()
    t = {"point": 6, "bets": {"pass6": 5}}
    o = g.evaluate({"come": 5}, [1, 3], t)
    assert _res(o)["come"] == (STAND, 0, "come4") and o.table == {"point": 6, "bets": {"pass6": 5, "come4": 5}}
    o = g.evaluate({"odds4:come": 10}, [2, 4], o.table)  # the pass wins; the come stays
    assert o.table == {"point": 0, "bets": {"come4": 5, "odds4:come": 10}}
    o = g.evaluate({"pass": 1}, [1, 3], o.table)  # a come-out 4: the come wins, its odds were off
    assert _res(o) == {"come4": (WIN, 10, None), "odds4:come": (RETURNED, 10, None), "pass": (STAND, 0, "pass4")}
    o = g.evaluate({}, [3, 4], {"point": 0, "bets": {"come4": 5, "odds4:come": 10}})  # a come-out 7
    assert _res(o) == {"come4": (LOSE, 0, None), "odds4:come": (RETURNED, 10, None)}
    o = g.evaluate({}, [1, 3], {"point": 8, "bets": {"come4": 5, "odds4:come": 10}})  # working: 2 to 1
    assert _res(o) == {"come4": (WIN, 10, None), "odds4:come": (WIN, 30, None)}
    # a come bet moves onto the number that decides the come bet standing there: the old one is paid
    o = g.evaluate({"come": 5}, [2, 2], {"point": 8, "bets": {"come4": 10}})
    assert _res(o) == {"come4": (WIN, 20, None), "come": (STAND, 0, "come4")}
    assert o.table == {"point": 8, "bets": {"come4": 5}}
    assert _res(g.evaluate({"dont_come": 5}, [6, 6], {"point": 8, "bets": {}})) == {"dont_come": (PUSH, 5, None)}


def test_place_buy_and_hardways_are_off_on_a_come_out_lay_is_not():
    g = _game()
    t = {"point": 0, "bets": {"place6": 6, "buy4": 20, "hard8": 5, "lay10": 40}}
    o = g.evaluate({"pass": 1}, [3, 4], t)  # a come-out 7: only the lay works
    r = _res(o)
    assert r["place6"] == (STAND, 0, "place6") and r["buy4"] == (STAND, 0, "buy4") and r["hard8"] == (STAND, 0, "hard8")
    assert r["lay10"] == (WIN, 40 + 20, None)  # 1 to 2
    on = {"point": 5, "bets": {"place6": 6, "buy4": 20, "hard8": 5, "lay10": 40, "place5": 5}}
    r = _res(g.evaluate({}, [1, 5], on))
    assert r["place6"] == (WIN, 6 + 7, None) and r["hard8"] == (STAND, 0, "hard8")  # 7 to 6
    r = _res(g.evaluate({}, [2, 2], on))
    assert r["buy4"] == (WIN, 20 + 40, None)  # 2 to 1, the commission paid when placed
    r = _res(g.evaluate({}, [4, 4], on))
    assert r["hard8"] == (WIN, 5 * 10, None)  # 9 to 1
    r = _res(g.evaluate({}, [2, 6], on))
    assert r["hard8"] == (LOSE, 0, None)  # an easy 8
    r = _res(g.evaluate({}, [4, 6], on))
    assert r["lay10"] == (LOSE, 0, None) and r["place5"] == (STAND, 0, "place5")
    r = _res(g.evaluate({}, [2, 3], on))
    assert r["place5"] == (WIN, 5 + 7, None)  # 7 to 5


def test_commissions_are_paid_with_the_wager():
    g = _game()
    t = {"point": 6, "bets": {}}
    # buy: 5 % of the wager (s. 95.17(2)); lay: 5 % of what it can win (s. 95.17(3)); up to a credit
    assert g.check_stake({"buy4": 20}, t) == 21 and g.check_stake({"buy5": 100}, t) == 105
    assert g.check_stake({"lay4": 40}, t) == 41  # wins 20: 1
    assert g.check_stake({"lay6": 24}, t) == 25 and g.check_stake({"lay6": 120}, t) == 125  # wins 20, 100
    assert g.check_stake({"lay5": 30, "buy9": 20}, t) == 31 + 21
    assert g.at_risk("lay6", 48) == 50


def test_one_roll_wagers():
    g = _game()
    t = {"point": 6, "bets": {}}
    cases = ((("field", 1), [1, 1], (WIN, 3)), (("field", 1), [6, 6], (WIN, 3)), (("field", 1), [4, 5], (WIN, 2)),
             (("field", 1), [2, 3], (LOSE, 0)), (("any7", 1), [3, 4], (WIN, 5)), (("eleven", 1), [5, 6], (WIN, 16)),
             (("any_craps", 1), [6, 6], (WIN, 8)), (("craps2", 1), [1, 1], (WIN, 31)), (("craps3", 1), [2, 1], (WIN, 16)),
             (("craps12", 1), [6, 5], (LOSE, 0)), (("horn", 4), [1, 1], (WIN, 31)), (("horn", 4), [1, 2], (WIN, 16)),
             (("horn", 4), [3, 4], (LOSE, 0)), (("world", 5), [3, 4], (PUSH, 5)), (("world", 5), [6, 6], (WIN, 31)),
             (("three_way", 3), [6, 6], (WIN, 31)), (("three_way", 3), [5, 6], (LOSE, 0)),
             (("hop_easy:2-5", 1), [5, 2], (WIN, 16)), (("hop_easy:2-5", 1), [2, 5], (WIN, 16)),
             (("hop_easy:2-5", 1), [3, 4], (LOSE, 0)), (("hop_hard:3-3", 1), [3, 3], (WIN, 31)),
             (("hop_hard:3-3", 1), [2, 4], (LOSE, 0)))
    for (key, c), dice, want in cases:
        o = g.evaluate({key: c}, dice, t)
        assert (o.results[0][2], o.results[0][3]) == want, (key, dice, o.results)
        assert o.table["bets"] == {}  # decided by the roll it was placed for


def test_a_stake_the_table_does_not_allow_is_refused_by_name():
    g = _game()
    on = {"point": 6, "bets": {"pass6": 5}}
    for stake, table, want in (
            ({"pass": 5}, on, '"pass": on a come-out roll only (the point is 6; s. 95.14)'),
            ({"come": 5}, None, '"come": after the come-out roll only'),
            ({"field": 1}, None, "a come-out roll needs a pass or don't pass wager (s. 95.11)"),
            ({}, None, "no wager on the table"),
            ({"odds6:pass": 50}, on, '"odds6:pass": 50 credits, at most 5 x the 5 on pass6'),
            ({"odds5:pass": 2}, on, "no pass5 on the table to back (s. 95.16)"),
            ({"odds6": 5}, on, "say what it is on (odds6:pass)"),
            ({"odds6:dont_pass": 5}, on, "odds back pass or come"),
            ({"hop_easy:5-2": 1}, on, "hop_easy on two faces 1-6, ascending"),
            ({"hop_easy:3-3": 1}, on, "hop_easy on two faces"),
            ({"pass6": 5}, on, "a line wager is placed as pass; its point is the dice's"),
            ({"place6": 5}, on, '"place6": 5 credits is not a bet level of place6 (6, 12, 30, 60)'),
            ({"horn": 5}, on, "not a bet level of horn (4, 8, 20)"),
            ({"place7": 5}, on, 'wager "place7" not offered'),
            ({"place6": 6}, {"point": 6, "bets": {"pass6": 5, "place6": 6}}, '"place6": already on the table'),
            ({}, {"point": 4, "bets": {"pass6": 5}}, '"pass6" stands but the point is 4'),
            ({}, {"point": 6, "bets": {"odds6:come": 5}}, '"odds6:come" backs no come6'),
            ({}, {"point": 6, "bets": {"field": 5}}, 'decided by one roll: it never stands'),
            ({}, {"point": 7, "bets": {}}, "point 7 is not 0, 4, 5, 6, 8, 9 or 10"),
            ({}, {"point": 6, "bets": {"come": 5}}, "has no point")):
        with raises(ValueError) as e:
            g.evaluate(stake, [1, 1], table)
        assert want in str(e.value), (stake, table, str(e.value))
    for draws in ([0, 1], [1, 7], [1], [1, 2, 3], "11"):
        with raises(ValueError):
            g.evaluate({"pass": 1}, draws)


def test_withdrawals():
    g = _game()
    t = {"point": 6, "bets": {"pass6": 5, "dont_come9": 5, "dont_odds9:dont_come": 15, "place8": 6, "come4": 5,
                              "lay10": 40, "hard6": 1}}
    assert g.withdrawable(t) == ["dont_come9", "dont_odds9:dont_come", "hard6", "lay10", "place8"]
    after, back = g.withdraw(t, "dont_come9")  # its odds go with it
    assert back == 20 and after == {"point": 6, "bets": {"pass6": 5, "place8": 6, "come4": 5, "lay10": 40, "hard6": 1}}
    after, back = g.withdraw(t, "lay10")
    assert back == 40  # the commission paid with it is not returned
    for key in ("pass6", "come4", "nothing"):
        with raises(ValueError):
            g.withdraw(t, key)


def test_the_roll_maps_below_onto_the_dice():
    g = _game()
    gen = Script([0, 5])  # rng.below(gen, 6): 3 bits, 6 and 7 rejected
    assert g.play(gen, {"pass": 1}).draws == [1, 6]
    gen = Script([6, 7, 2, 3])
    assert g.play(gen, {"pass": 1}).draws == [3, 4]


def test_the_lines_played_until_decided_return_their_certificate():
    # pass and don't pass through evaluate(), the table carried from roll to roll: a decided wager's
    # return adds up; a point that stands comes back to itself until its number or a 7
    g = _game()
    with open("games/certs/craps-83.json") as f:
        cert = json.load(f)
    for key in ("pass", "dont_pass"):
        for c in (1, 5, 25):
            num, den = _value(g, {key: c}, None)
            p, q = cert["rtp"][key].split("/")
            assert num * int(q) == int(p) * den * c, (key, c, num, den)


def _value(g, stake, table):
    # (num, den): expected credits returned from here until every wager is decided
    num, den = 0, 1
    loops = 0
    for i in range(36):
        o = g.evaluate(stake, [i // 6 + 1, i % 6 + 1], table)
        if o.table["bets"] == (table or {}).get("bets") and not stake:
            loops += 1  # the same standing wager, undecided
            num, den = num * 1 + o.award * den, den
            continue
        n2, d2 = (o.award, 1) if not o.table["bets"] else _add((o.award, 1), _value(g, {}, o.table))
        num, den = num * d2 + n2 * den, den * d2
    return num, den * (36 - loops)


def _add(a, b):
    return a[0] * b[1] + b[0] * a[1], a[1] * b[1]


def test_the_boot_check_recomputes_every_wager():
    ok, reason, game = check("games/models/craps-83.json", "games/certs/craps-83.json")
    assert ok and reason == "ok: craps-83, 50 wagers, lowest return 83.333 % (any7)", reason
    assert game.kind == "dice"
    # the most one wager returns / puts at risk, per level of game.bets (a buy of 100 risks 105)
    i = game.bets.index(100)
    assert game.max_award[i] == 300 and game.max_risk[i] == 105


def test_the_loader_refuses_by_name():
    def refused(change, want):
        raw = read("games/models/craps-83.json")
        change(raw)
        with raises(ModelError) as e:
            CrapsGame(raw)
        assert want in str(e.value), (want, str(e.value))

    refused(lambda m: m["wagers"]["field"]["pays"].update({"12": [3, 1]}), 'wagers "field": pays {')
    refused(lambda m: m["wagers"]["buy4"].update(commission=[4, 100]), "commission [4, 100], the by-law's is [5, 100]")
    refused(lambda m: m["wagers"]["place4"].update(commission=[5, 100]), "only buy and lay wagers take a commission")
    refused(lambda m: m["wagers"]["horn"].update(bets=[4, 6]), "bet 6 does not split evenly over its 4 totals")
    refused(lambda m: m["odds_max"].pop("6"), "odds_max: point 6 needs a multiple 1 to 100")
    refused(lambda m: m["odds_max"].update({"7": 2}), "odds_max: points 4, 5, 6, 8, 9, 10 only")
    refused(lambda m: m["wagers"]["place6"].update(pays=[7, 5]), "pays 7 to 5, the by-law pays 7 to 6 (s. 95.17(1))")


def test_a_win_that_rounds_to_nothing_is_a_push():
    # a lay of 1 credit on the 4 wins 1 to 2: half a credit, rounded down to none: the stake comes back
    # and it is no hit (the outside check found the certifier counting it as one)
    raw = read("games/models/craps-83.json")
    raw["wagers"]["lay4"]["bets"] = [1, 40]
    g = CrapsGame(raw)
    o = g.evaluate({}, [3, 4], {"point": 0, "bets": {"lay4": 1}})
    assert o.results == [["lay4", 1, PUSH, 1, None]] and o.award == 1
    from games import table_exact
    (n, d), (h, k) = table_exact.figures(g, "lay4", 1)
    assert h == 0 and n * 3 == 2 * d  # returned 1 with chance 2/3, per 1 + 1 (its commission) at risk


def test_the_rules_before_play_name_the_commissions_and_the_totals():
    g = _game()
    en = g.describe("en")
    assert "  Buy 4: 2 to 1 (s. 95.17(2)); 5 % commission; bets 20/40/100 credits" in en
    assert "  Field: 2: 2 to 1, 3: 1 to 1, 4: 1 to 1, 9: 1 to 1, 10: 1 to 1, 11: 1 to 1, 12: 2 to 1 (s. 95.14(5)); " \
           "bets 1/2/5/10/25 credits" in en
    assert "  Buy bet 4 : 2 à 1 (art. 95.17(2)); commission de 5 %; mises 20/40/100 crédits" in g.describe("fr")


def test_the_console_gets_the_rules_a_line_at_a_time():
    # the console's `paytable` says each line as it is made (firmware/cabinet.py paytable): craps' 50
    # wagers' lines whole in one list found no room in a 112K session with SAS (docs/sas.md "Memory")
    g = _game()
    for lang in ("fr", "en"):
        lines = g.text_lines(lang)
        assert iter(lines) is lines  # a generator, not a list
        first = next(lines)
        assert first == "Craps" and [first] + list(lines) == g.describe(lang)
