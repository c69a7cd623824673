"""A coupon is paid once and never lost when the cashier's process is killed at any instant
(issue 27, "Coupons"; central/cashier.py), on SQLite and on PostgreSQL: killed at each named step of a redemption
(central/crash.py), and at random instants of a run over many coupons, then asked again.

The coupons are made here as a machine would report them (SAS 4D): 18 digits, a validation id this
test's system gave, and the Luhn check digit from python-stdnum (an implementation apart from the
code under test, which only checks it)."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from stdnum import luhn

from central import cabinets, coupons
from central.crash import CRASH_ENV
from central.sas_reads import CouponRecord
from central.store import cabinet, open_store
from tests.host.central_stores import ENGINES
from tests.host.central_stores import url as store_url

ROOT = Path(__file__).resolve().parents[2]
VID = 77
NOW = int(time.time())


def number(vid: int, ticket: int) -> str:
    body = f"{vid:08d}{ticket * 7919 % 10**9:09d}"  # any 9 digits, distinct per ticket
    return body + luhn.calc_check_digit(body)


@pytest.fixture(params=ENGINES)
def db(request, tmp_path) -> str:
    return store_url(request.param, tmp_path)


def make_db(db: str, n: int) -> list[str]:
    store = open_store(db)
    out = []
    with store.transaction() as tx:
        cabinets.add(tx, "cab01", "site-1", NOW)
        tx.run("INSERT INTO validation_ids (vid, cabinet, given_at) VALUES (?, ?, ?)", (VID, "cab01", NOW))
        for t in range(1, n + 1):
            rec = CouponRecord(number(VID, t), cents=100 * t, ticket=t, issued_at=NOW - 60, index=1)
            assert coupons.record(tx, "cab01", rec, NOW)
            out.append(rec.number)
    store.close()
    return out


def cashier(db: str, *args: str, crash: str | None = None, **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop(CRASH_ENV, None)
    if crash:
        env[CRASH_ENV] = crash
    return subprocess.Popen([sys.executable, "-m", "central.cashier", "--db", db, "--cashier", "ann", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True, **kw)


def answers(p: subprocess.Popen) -> list[dict]:
    out, _ = p.communicate(timeout=60)
    return [json.loads(line) for line in out.splitlines()]


def paid(db: str) -> dict[str, tuple]:
    store = open_store(db)
    with store.transaction(write=False) as tx:
        rows = tx.all("SELECT number, paid_at, paid_request FROM coupons")
        reds = tx.all("SELECT number, request, cents FROM redemptions WHERE outcome = 'paid'")
    store.close()
    return {"coupons": {r[0]: r[2] for r in rows if r[1] is not None}, "redemptions": reds}


@pytest.mark.parametrize("step", ["checked", "before-commit"])
def test_killed_before_the_commit_pays_nothing_and_the_coupon_is_paid_when_asked_again(db, step) -> None:
    [n] = make_db(db, 1)
    p = cashier(db, "--request", "r1", n, crash=step)
    assert answers(p) == [] and p.returncode == -signal.SIGKILL
    assert paid(db) == {"coupons": {}, "redemptions": []}  # nothing paid, nothing half-done
    [a] = answers(cashier(db, "--request", "r1", n))
    assert (a["outcome"], a["cents"]) == ("paid", 100)
    assert paid(db) == {"coupons": {n: "r1"}, "redemptions": [(n, "r1", 100)]}


def test_killed_after_the_commit_the_same_request_gets_its_answer_and_another_is_refused(db) -> None:
    [n] = make_db(db, 1)
    p = cashier(db, "--request", "r1", n, crash="after-commit")
    assert answers(p) == [] and p.returncode == -signal.SIGKILL  # the cashier never saw the answer
    assert paid(db) == {"coupons": {n: "r1"}, "redemptions": [(n, "r1", 100)]}
    [a] = answers(cashier(db, "--request", "r1", n))  # the cashier's screen asks again: same request
    assert (a["outcome"], a["cents"]) == ("paid", 100)
    [b] = answers(cashier(db, "--request", "r2", n))  # a second presentation of the coupon
    assert b["outcome"] == "refused" and b["reason"].startswith("already paid") and b["cents"] == 0
    assert paid(db)["redemptions"] == [(n, "r1", 100)]  # one payment, whatever was asked


def test_killed_at_random_instants_every_coupon_is_paid_exactly_once(db, tmp_path) -> None:
    """A cashier's run over 200 coupons killed 8 times at random instants (seeded), each time started
    again on the coupons it had no answer for, as a cashier would present them again."""
    numbers = make_db(db, 200)
    rnd = random.Random(2027)
    answered: dict[str, dict] = {}
    kills = mid_run = 0
    for _ in range(40):
        todo = [n for n in numbers if n not in answered]
        if not todo:
            break
        (tmp_path / "todo").write_text("\n".join(todo))
        p = cashier(db, "--each", str(tmp_path / "todo"))
        got = []
        if kills < 8:  # after a random number of answers, a random instant later: inside a redemption or between
            assert p.stdout is not None
            for _ in range(rnd.randint(0, 20)):
                got.append(json.loads(p.stdout.readline()))
            time.sleep(rnd.uniform(0, 0.004))
            p.send_signal(signal.SIGKILL)
            kills += 1
        got += answers(p)
        for a in got:
            assert a["outcome"] == "paid", a  # its own request again, or the first time: never refused
            answered[a["number"]] = a
        mid_run += p.returncode == -signal.SIGKILL and 0 < len(got) < len(todo)
    assert kills == 8 and sorted(answered) == sorted(numbers)
    assert mid_run >= 3  # the kills fell among the redemptions, not only before the first
    state = paid(db)
    assert sorted(state["coupons"]) == sorted(numbers)  # none lost
    assert sorted(r[0] for r in state["redemptions"]) == sorted(numbers)  # each paid once
    assert sum(a["cents"] for a in answered.values()) == sum(100 * t for t in range(1, 201))


def open_writer(fifo: Path, reader: subprocess.Popen, timeout: float = 30.0) -> int:
    """The pipe's writing end, once its reader opened it (a reader that died first fails the test,
    instead of hanging it)."""
    wait = threading.Event()
    for _ in range(int(timeout / 0.02)):
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO while no reader has it open
        except OSError:
            assert reader.poll() is None, f"the cashier ended first ({reader.returncode})"
            wait.wait(0.02)
    raise AssertionError(f"no reader opened {fifo} in {timeout} s")


def test_two_cashiers_at_once_pay_each_coupon_once(db, tmp_path) -> None:
    """Two cashiers' processes presenting the same 100 coupons at the same time, in opposite orders:
    each coupon is paid to one of them, and the other is told it was already paid. Each reads its
    list from a pipe, written once both are connected to the store and waiting on it, so that they
    start together (how their redemptions interleave is the scheduler's: the outcome must not depend
    on it)."""
    numbers = make_db(db, 100)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop(CRASH_ENV, None)
    procs, pipes = [], []
    for who in ("ann", "bob"):
        fifo = tmp_path / who
        os.mkfifo(fifo)
        procs.append(subprocess.Popen([sys.executable, "-m", "central.cashier", "--db", db, "--cashier", who,
                                       "--each", str(fifo)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True))
        pipes.append(fifo)
    writers = [open_writer(f, p) for f, p in zip(pipes, procs)]
    for fd, order in zip(writers, (numbers, numbers[::-1])):
        os.set_blocking(fd, True)
        os.write(fd, "\n".join(order).encode())
    for fd in writers:
        os.close(fd)
    each = [answers(p) for p in procs]
    got = each[0] + each[1]
    paid_to = [a["number"] for a in got if a["outcome"] == "paid"]
    assert sorted(paid_to) == sorted(numbers)  # each paid once, to one cashier
    refused = [a for a in got if a["outcome"] == "refused"]
    assert len(refused) == 100 and all(a["reason"].startswith("already paid") for a in refused)
    assert sorted(r[0] for r in paid(db)["redemptions"]) == sorted(numbers)


def test_postgres_writers_of_two_cabinets_go_side_by_side_and_one_cabinets_stay_ordered_and_once(tmp_path) -> None:
    """PostgresStore's lock per cabinet (central/store.py), on the real server: a transaction of
    cabinet B commits while one of cabinet A is open; a second writer of A waits for the first
    (PostgreSQL shows its advisory lock not granted) and writes after it; threads giving orders to
    both cabinets at once store every order once, each cabinet's centre sequence 1..N with no gap
    and each thread's orders in its own order."""
    store = open_store(store_url("postgresql", tmp_path))
    seen: dict[str, bool] = {}
    a_open, b_done = threading.Event(), threading.Event()

    def first_of_a() -> None:
        with store.transaction(keys=[cabinet("A")]) as tx:
            cabinets.add(tx, "A", "site-1", NOW)
            assert cabinets.order(tx, "A", "disable", "first", NOW)
            a_open.set()
            seen["b committed meanwhile"] = b_done.wait(5)
            seen["second of a waits"] = waiting(1)

    def second_of_a() -> None:
        with store.transaction(keys=[cabinet("A")]) as tx:
            assert cabinets.order(tx, "A", "enable", "second", NOW)

    def waiting(n: int) -> bool:
        """Until n advisory locks are waited for (asked from a connection of its own), up to 5 s."""
        import psycopg

        with psycopg.connect(store.conninfo, autocommit=True) as con:
            for _ in range(100):
                if con.execute("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                               ).fetchone()[0] == n:
                    return True
                threading.Event().wait(0.05)
        return False

    first = threading.Thread(target=first_of_a)
    first.start()
    assert a_open.wait(10)
    with store.transaction(keys=[cabinet("B")]) as tx:  # not held up by A's open transaction
        cabinets.add(tx, "B", "site-1", NOW)
    b_done.set()
    second = threading.Thread(target=second_of_a)
    second.start()
    first.join(20)
    second.join(20)
    assert seen == {"b committed meanwhile": True, "second of a waits": True}

    def orders(t: int) -> None:
        for k in range(20):
            for name in ("A", "B"):
                with store.transaction(keys=[cabinet(name)]) as tx:
                    assert cabinets.order(tx, name, "disable", f"t{t}-{k:02d}", NOW)

    threads = [threading.Thread(target=orders, args=(t,)) for t in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    with store.transaction(write=False) as tx:
        for name, extra in (("A", ["first", "second"]), ("B", [])):
            rows = tx.all("SELECT seq, detail FROM events WHERE cabinet = ? AND origin = 'centre' ORDER BY seq", (name,))
            assert [seq for seq, _ in rows] == list(range(1, len(extra) + 61)), rows
            by = [d.rsplit(" ", 1)[1] for _, d in rows]
            assert by[:len(extra)] == extra
            for t in range(3):
                assert [b for b in by if b.startswith(f"t{t}-")] == [f"t{t}-{k:02d}" for k in range(20)]
    store.close()
