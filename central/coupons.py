"""Coupons as the central system keeps them: each one a machine reports (SAS 4D) recorded once under
its control number, and the register of coupons of $500 or more (L-6, r. 3, s. 40, as issue 27
cites it; the fields kept are this module's choice: the section's text is not in the project's
reference folder)."""
from __future__ import annotations

from central.sas_reads import CouponRecord
from central.store import Tx

CLAIM_S = 24 * 3600  # a coupon is claimed within 24 hours of issue (S-13.1, r. 7, s. 14)
REGISTER_CENTS = 50000  # $500 (L-6, r. 3, s. 40)


def record(tx: Tx, cabinet: str, rec: CouponRecord, now: int) -> bool:
    """Keep a coupon the machine reported; False when it was kept already (a record read again
    after a restart, or read by index): nothing changes then."""
    return tx.run("INSERT INTO coupons (number, cabinet, vid, ticket, cents, issued_at, expires_at, recorded_at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (number) DO NOTHING",
                  (rec.number, cabinet, int(rec.number[:8]), rec.ticket, rec.cents, rec.issued_at,
                   rec.issued_at + CLAIM_S, now)) == 1


def register(tx: Tx, since: int = 0) -> list[dict]:
    """Coupons of REGISTER_CENTS or more issued since `since`, oldest first, with their payment."""
    rows = tx.all("SELECT c.number, c.cabinet, k.machine_id, c.cents, c.issued_at, c.paid_at, c.paid_by "
                  "FROM coupons c LEFT JOIN cabinets k ON k.name = c.cabinet "
                  "WHERE c.cents >= ? AND c.issued_at >= ? ORDER BY c.issued_at, c.number", (REGISTER_CENTS, since))
    keys = ("number", "cabinet", "machine_id", "cents", "issued_at", "paid_at", "paid_by")
    return [dict(zip(keys, r)) for r in rows]
