"""The cashier's redemption of a coupon: paid once and only once (S-13.1, r. 7, s. 10 and 14).

A redemption is one write transaction: the request is looked up, the coupon checked, marked paid
and the answer recorded, then committed; the cashier hands out the money only on the answer, which
is given after the commit. A crash before the commit leaves nothing (the coupon unpaid: the cashier
asks again); a crash after it leaves the coupon paid and the answer kept under the cashier's request
id, so the same request asked again gets the same answer ("paid", the same amount) and pays nothing
more, while any other request is refused ("already paid"). The refusals, checked in this order:
the number's form, its Luhn check digit (a digit misread or altered), its validation id (one this
system gave), the coupon's record (one a machine reported), the amount the cashier reads on the
paper (when given), the claim deadline (CLAIM_S after issue), a payment already made."""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from dataclasses import dataclass

from stdnum import luhn

from central.coupons import CLAIM_S
from central.crash import point as _crash
from central.sas_reads import QUEBEC
from central.store import Store, open_store


@dataclass(frozen=True)
class Answer:
    outcome: str   # paid, refused
    reason: str
    cents: int
    number: str


def local(t: int) -> str:
    return datetime.datetime.fromtimestamp(t, QUEBEC).strftime("%Y-%m-%d %H:%M:%S %Z")


def dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def redeem(store: Store, number: str, cashier: str, request: str, now: int,
           claimed_cents: int | None = None) -> Answer:
    number = number.strip().replace(" ", "").replace("-", "")
    with store.transaction(keys=[("coupon", number), ("request", request)]) as tx:
        done = tx.one("SELECT number, outcome, reason, cents FROM redemptions WHERE request = ?", (request,))
        if done:
            if done[0] != number:
                return Answer("refused", f"request {request} was for another coupon", 0, number)
            return Answer(done[1], done[2], done[3], number)
        reason, cents = _refusal(tx, number, now, claimed_cents)
        _crash("checked")
        if reason is None:
            changed = tx.run("UPDATE coupons SET paid_at = ?, paid_by = ?, paid_request = ? "
                             "WHERE number = ? AND paid_at IS NULL", (now, cashier, request, number))
            if changed != 1:  # cannot be: the row was read unpaid in this transaction
                raise RuntimeError(f"coupon {number} changed under its redemption")
            answer = Answer("paid", f"pay {dollars(cents)}", cents, number)
        else:
            answer = Answer("refused", reason, 0, number)
        tx.run("INSERT INTO redemptions (request, number, cashier, at, outcome, reason, cents) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)", (request, number, cashier, now, answer.outcome, answer.reason,
                                                answer.cents))
        _crash("before-commit")
    _crash("after-commit")
    return answer


def _refusal(tx, number: str, now: int, claimed_cents: int | None) -> tuple[str | None, int]:
    if len(number) != 18 or not number.isdigit():
        return "malformed: a control number is 18 digits", 0
    if not luhn.is_valid(number):
        return "altered: the check digit does not match (a digit misread or changed)", 0
    vid = int(number[:8])
    if tx.one("SELECT vid FROM validation_ids WHERE vid = ?", (vid,)) is None:
        return f"forged: validation id {vid} was never given by this system", 0
    row = tx.one("SELECT cents, issued_at, paid_at, paid_by FROM coupons WHERE number = ?", (number,))
    if row is None:
        return "forged: no machine reported a coupon with this number", 0
    cents, issued_at, paid_at, paid_by = row
    if claimed_cents is not None and claimed_cents != cents:
        return f"altered: the paper says {dollars(claimed_cents)}, the machine issued {dollars(cents)}", 0
    if paid_at is not None:
        return f"already paid: {local(paid_at)} by {paid_by}", 0
    if now > issued_at + CLAIM_S:
        return (f"expired: issued {local(issued_at)}, to be claimed by {local(issued_at + CLAIM_S)} "
                "(24 h, S-13.1, r. 7, s. 14)"), 0
    return None, cents


def main(argv: list[str] | None = None) -> int:
    """python -m central.cashier --db PATH --cashier NAME [--request ID NUMBER | --each FILE]: redeem
    one coupon, or each number of FILE (one a line, the request id "NAME-NUMBER"), one answer a line
    as JSON, written once the redemption is committed."""
    ap = argparse.ArgumentParser(prog="python -m central.cashier")
    ap.add_argument("--db", required=True, help="the store: sqlite:PATH or postgresql:CONNINFO")
    ap.add_argument("--cashier", required=True)
    ap.add_argument("--request")
    ap.add_argument("--each", help="a file of control numbers, one a line")
    ap.add_argument("number", nargs="?")
    args = ap.parse_args(argv)
    store = open_store(args.db)
    if args.each:
        todo = [(n, f"{args.cashier}-{n}") for n in open(args.each).read().split()]
    elif args.number and args.request:
        todo = [(args.number, args.request)]
    else:
        ap.error("a NUMBER with --request, or --each FILE")
    for number, request in todo:
        a = redeem(store, number, args.cashier, request, int(time.time()))
        sys.stdout.write(json.dumps({"request": request, "number": a.number, "outcome": a.outcome,
                                     "reason": a.reason, "cents": a.cents}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
