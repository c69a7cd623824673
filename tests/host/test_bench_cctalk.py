"""tools/bench/bench_cctalk.py's hopper cash-out: the real driver paying against its simulated hopper,
driven pass by pass as the cabinet's loop drives it, never waits on the bus (the Master's idle() is
never called from the cash-out's first pass to the last step after the result); what it pays is
what left the hopper, each chunk's 167 sent once. The ms figures are the benchmark's, not pinned."""
from tools.bench.bench_cctalk import cashout, setup


def test_a_cash_out_of_one_chunk_never_waits():
    r = cashout(20, None)
    assert r["waits"] == 0 and r["final"] == ["payout", 20, 0] and r["coins_out"] == 20 and r["dispenses"] == 1


def test_a_cash_out_over_255_coins_arms_its_second_chunk_without_waiting():
    r = cashout(300, None)
    assert r["waits"] == 0 and r["final"] == ["payout", 300, 0] and r["coins_out"] == 300
    assert r["dispenses"] == 2  # 255, then 45 (board/hopper_cctalk.py MAX_CHUNK)


def test_a_power_loss_mid_cash_out_is_resolved_without_waiting():
    r = cashout(20, 40)
    paid, unpaid = r["final"][1:]
    assert r["waits"] == 0 and r["final"][0] == "payout" and 0 < paid < 20
    assert paid == r["coins_out"] and paid + unpaid == 20 and r["dispenses"] == 1  # never sent again



def test_the_hopper_set_up_in_the_loop_never_waits():
    r = setup()
    assert r["waits"] == 0 and r["passes"] > 4  # 245, 163, 168, 164: one exchange a pass at most
