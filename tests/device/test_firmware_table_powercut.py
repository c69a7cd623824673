# A power cut at every NVRAM write of a table-game round on the real Cabinet (issue 26,
# firmware/play_table.py): a craps roll with a pass line standing on its point and three wagers placed
# (one of them the pass line's odds) neither loses nor duplicates a credit: the books balance, the round
# is played once or not at all, its recall record replays it bit for bit, and the table left standing
# is the one its outcome leaves. Its own file: a heap of its own for a cabinet rebuilt per cut.
# mp-heap: 768K  (as test_firmware_keno.py, and a cabinet rebuilt per cut: a cut cabinet the conservative
# collector still sees on the stack now and then, 16 KB, splits a 640K heap)
from fakes_firmware import PowerCut
from test_firmware_table_play import cabinet, replayed, stand, steps

from firmware import states


def _round_with_a_cut(cut_at):
    """A craps round on a fresh part (a pass line standing on a point, field and hardway placed),
    the power cut at NVRAM write number cut_at (None: none), then power up again. (cabinet, writes)."""
    cab, board, acc = cabinet("craps-83")
    led = cab.ledger
    led.accept(30)
    stand(cab, [({"pass": 5}, [4, 4])])  # a pass line on 8
    cab.gameplay._stake = {"field": 2, "hard8": 1, "odds8:pass": 10}
    nv = board.nvram
    start = nv.writes
    nv.cut(cut_at)
    try:
        assert cab.handle(states.PLAY)
        steps(cab, 150)
    except PowerCut:
        cab = None
    nv.cut(None)
    if cab is None:
        cab = board = acc = led = None
        cab, board, acc = cabinet("craps-83", nv=nv)
        steps(cab, 150)
    return cab, nv.writes - start


def test_a_power_cut_at_every_write_of_a_craps_round_neither_loses_nor_duplicates_a_credit():
    cab, total = _round_with_a_cut(None)
    cab = None  # one cabinet at a time
    assert total >= 2
    seen = set()
    for k in range(1, total + 1):
        cab, _ = _round_with_a_cut(k)
        led = cab.ledger
        led.audit()  # credits == money in + coin_out + refunds - coin_in - cashout
        m = led.meters
        if m["games_played"] == 1:  # cut before the round's commit: nothing moved since the pass line
            assert led.credits == 25 and m["coin_in"] == 5 and cab.gameplay.table() == {"point": 8, "bets": {"pass8": 5}}, k
            seen.add("no round")
            cab = led = m = None
            continue
        assert m["games_played"] == 2 and m["coin_in"] == 5 + 13 and len(led.recall()) == 2, (k, m)
        rec = led.recall()[-1]
        o = replayed(cab, rec)
        assert rec["draws"][0] == {"field": 2, "hard8": 1, "odds8:pass": 10}
        assert rec["draws"][1] == {"point": 8, "bets": {"pass8": 5}}
        assert led.credits == 25 - 13 + rec["win"] == rec["after"], (k, rec)
        left = o.table if o.table["bets"] or o.table["point"] else None
        assert cab.gameplay.table() == left, (k, cab.gameplay.table(), left)
        seen.add("round")
        cab = led = m = rec = o = left = None  # nothing of this boot pins the heap of the next
    assert seen == {"no round", "round"}
