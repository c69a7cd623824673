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

import datetime
import os
import signal
from dataclasses import dataclass

from stdnum import luhn

from central.coupons import CLAIM_S
from central.sas_reads import QUEBEC
from central.store import Store

# A test's kill at a named step of a redemption (tests/host/test_central_crash.py): the process
# SIGKILLs itself there, as a power cut or an OOM kill would end it. Unset in service.
CRASH_ENV = "JETON_CENTRAL_CRASH"


@dataclass(frozen=True)
class Answer:
    outcome: str   # paid, refused
    reason: str
    cents: int
    number: str


def _crash(step: str) -> None:
    if os.environ.get(CRASH_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)


def local(t: int) -> str:
    return datetime.datetime.fromtimestamp(t, QUEBEC).strftime("%Y-%m-%d %H:%M:%S %Z")


def dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def redeem(store: Store, number: str, cashier: str, request: str, now: int,
           claimed_cents: int | None = None) -> Answer:
    number = number.strip().replace(" ", "").replace("-", "")
    with store.transaction() as tx:
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
