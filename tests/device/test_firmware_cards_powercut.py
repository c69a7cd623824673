# A power cut at every NVRAM write of a Let It Ride round on the real Cabinet (issue 26,
# firmware/play_cards.py): the wager, the deal, two decisions (the first wager taken back, the second
# let ride) and the settlement are each a commit; after a cut at any of them the round resumes at its
# last commit with the same cards (or is dealt then, its deal not committed), the decisions still to
# make are made again, and no credit is lost or duplicated: the books balance, the round is played
# once, its recall record replays bit for bit, coin_in counts the two wagers that rode.
# mp-heap: 768K  (as test_firmware_table_powercut.py: a cabinet rebuilt per cut)
from fakes_firmware import PowerCut
from test_firmware_cards_play import _cards, _deal
from test_firmware_table_play import cabinet, steps

from firmware import states

DEAL = ("As", "Ah", "5c", "9d", "2s")  # a pair of aces: 1 to 1 on each wager riding (s. 67.8)


def _round_with_a_cut(cut_at):
    cab, board, acc = cabinet("let-it-ride-98")
    cab.ledger.accept(10)
    _deal(cab, DEAL)
    cab.gameplay._stake = {"ride": 1}
    nv = board.nvram
    start = nv.writes
    nv.cut(cut_at)
    try:
        assert cab.handle(states.PLAY)
        for key in (1, 2):  # take back, then let ride
            if cab.state == states.HOLD:
                assert cab.handle(states.HOLD_KEY, key)
        steps(cab, 150)
    except PowerCut:
        cab = None
    nv.cut(None)
    if cab is None:
        cab = board = acc = None
        cab, board, acc = cabinet("let-it-ride-98", nv=nv)
        _deal(cab, DEAL)  # a round whose deal was not committed is dealt at power-up
        while cab.state == states.HOLD:  # the decisions still to make: the same two
            made = len(cab.ledger.game["deck"].split(".")[2])
            assert cab.screen.reels == [list(DEAL[:3 + made])]  # the same cards, as far as decided
            assert cab.handle(states.HOLD_KEY, made + 1)
        steps(cab, 150)
    return cab, nv.writes - start


def test_a_power_cut_at_every_write_of_a_let_it_ride_round_neither_loses_nor_duplicates_a_credit():
    cab, total = _round_with_a_cut(None)
    assert total >= 5 and cab.ledger.credits == 10 - 2 + 4
    cab = None
    seen = set()
    for k in range(1, total + 1):
        cab, _ = _round_with_a_cut(k)
        led = cab.ledger
        led.audit()  # credits == money in + coin_out + refunds - coin_in - cashout
        m = led.meters
        if m["games_played"] == 0:  # cut before the wager's commit: nothing moved
            assert led.credits == 10 and m["coin_in"] == 0, k
            seen.add("no round")
        else:
            assert m["games_played"] == 1 and m["coin_in"] == 2 and m["coin_out"] == 4, (k, m)
            rec = led.recall()[-1]
            o = cab.game.evaluate_round(rec["bet"], rec["draws"])
            assert rec["draws"] == [{"ride": 1}, _cards(*DEAL) + [0, 1]] and o.award == rec["win"] == 4, (k, rec)
            assert led.credits == 12 == rec["after"], (k, rec)
            seen.add("round")
        cab = led = m = None
    assert seen == {"no round", "round"}
