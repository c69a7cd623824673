"""What a site sends the centre, as messages (JSON objects), and how the centre applies each one to
the store: idempotently, so that a message delivered twice (a broker's redelivery, a site
controller's replay after a restart) changes nothing the second time.

| kind | fields | stored under |
|---|---|---|
| `cabinet` | `machine_id`, `paytable`, `max_bet`, `denom_code` (54, 1F) | the cabinet (its row updated) |
| `connected` | — | the cabinet (its order in force sent again) |
| `event` | `seq`, `event`, `code`, `detail`; `status`, `vid`, `applied`, `game_applied`, `verified` | (cabinet, site, seq) |
| `snapshot` | `seq`, `meters`, `max_bet` | (cabinet, seq) |
| `coupon` | `number`, `cents`, `ticket`, `issued_at` (4D) | its control number |

Every message also has `site`, `cabinet` and `at` (the site's clock, seconds). An event may carry
`status` (a link event: online, silent), `vid` (the validation id set, 4C), `applied` (the order
the machine took, 01/02), `game_applied` (the order for its game 1 it took, 09) or `verified`
(SAS 21: the approved software or not; not keeps the cabinet disabled)."""
from __future__ import annotations

from typing import Any

from central import cabinets, coupons, meters
from central.sas_reads import CouponRecord
from central.store import Tx

KINDS = ("cabinet", "connected", "event", "snapshot", "coupon")


def apply(tx: Tx, msg: dict[str, Any]) -> None:
    kind, name, at = msg["kind"], msg["cabinet"], int(msg["at"])
    if kind not in KINDS:
        raise ValueError(f"no such message kind: {kind!r}")
    cabinets.add(tx, name, msg["site"], at)
    if kind == "cabinet":
        cabinets.describe(tx, name, msg["machine_id"], msg["paytable"], msg["max_bet"], msg["denom_code"])
    elif kind == "connected":
        cabinets.connected(tx, name)
    elif kind == "event":
        if "vid" in msg:
            cabinets.validation_set(tx, name, msg["vid"], at, seq=msg["seq"])
        elif "applied" in msg:
            cabinets.order_taken(tx, name, msg["applied"], at, seq=msg["seq"])
        elif "game_applied" in msg:
            cabinets.order_taken(tx, name, msg["game_applied"], at, seq=msg["seq"], target="game")
        elif cabinets.event(tx, name, at, msg["event"], msg["detail"], msg.get("code"), seq=msg["seq"]):
            if "status" in msg:
                cabinets.set_status(tx, name, msg["status"], at)
            if msg.get("verified") is False:  # not the approved software: kept disabled until an operator enables it
                tx.run("UPDATE cabinets SET wanted = 'disabled' WHERE name = ?", (name,))
    elif kind == "snapshot":
        meters.store(tx, name, msg["meters"], at, msg.get("max_bet"), seq=msg["seq"])
        cabinets.answered(tx, name, at)
    else:
        rec = CouponRecord(number=msg["number"], cents=msg["cents"], ticket=msg["ticket"],
                           issued_at=msg["issued_at"], index=0)
        coupons.record(tx, name, rec, at)
