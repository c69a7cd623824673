"""The cabinets of a site as the central system knows them: what each said it is, whether it
answers, the validation ids given, and the events seen (each under the cabinet's next sequence)."""
from __future__ import annotations

from central.store import Tx

VID_MAX = 0xFFFFFF  # SAS 4C carries 3 bytes (docs/coupons.md)
SILENT_AFTER = 3  # polls unanswered in a row before a cabinet is marked silent


def add(tx: Tx, name: str, site: str, now: int) -> None:
    tx.run("INSERT INTO cabinets (name, site, status, status_since, misses) VALUES (?, ?, 'new', ?, 0) "
           "ON CONFLICT (name) DO NOTHING", (name, site, now))


def event(tx: Tx, cabinet: str, now: int, kind: str, detail: str, code: int | None = None) -> int:
    row = tx.one("SELECT COALESCE(MAX(seq), 0) FROM events WHERE cabinet = ?", (cabinet,))
    seq = (row[0] if row else 0) + 1
    tx.run("INSERT INTO events (cabinet, seq, at, kind, code, detail) VALUES (?, ?, ?, ?, ?, ?)",
           (cabinet, seq, now, kind, code, detail))
    return seq


def describe(tx: Tx, name: str, machine_id: str, paytable: str, max_bet: int, denom_code: int) -> None:
    tx.run("UPDATE cabinets SET machine_id = ?, paytable = ?, max_bet = ?, denom_code = ? WHERE name = ?",
           (machine_id, paytable, max_bet, denom_code, name))


def answered(tx: Tx, name: str, now: int) -> None:
    """The cabinet answered a poll: online (an event when it was not)."""
    row = tx.one("SELECT status FROM cabinets WHERE name = ?", (name,))
    if row and row[0] != "online":
        tx.run("UPDATE cabinets SET status = 'online', status_since = ? WHERE name = ?", (now, name))
        event(tx, name, now, "link", f"answering ({row[0]} before)")
    tx.run("UPDATE cabinets SET last_answer = ?, misses = 0 WHERE name = ?", (now, name))


def missed(tx: Tx, name: str, now: int, why: str) -> bool:
    """A poll unanswered; True when this one made the cabinet silent."""
    tx.run("UPDATE cabinets SET misses = misses + 1 WHERE name = ?", (name,))
    row = tx.one("SELECT status, misses FROM cabinets WHERE name = ?", (name,))
    if row and row[0] != "silent" and row[1] >= SILENT_AFTER:
        tx.run("UPDATE cabinets SET status = 'silent', status_since = ? WHERE name = ?", (now, name))
        event(tx, name, now, "link", f"not answering: {row[1]} polls in a row ({why})")
        return True
    return False


def validation_id_for(tx: Tx, name: str, in_force: int, now: int) -> int | None:
    """The validation id to set on a cabinet whose machine has `in_force` (SAS 4C read; 0 none):
    None when it already has the one this system gave it; else the next id this system never gave
    (a machine that lost its coupon memory must get an id it never had: docs/coupons.md)."""
    row = tx.one("SELECT validation_id FROM cabinets WHERE name = ?", (name,))
    if row and row[0] is not None and row[0] == in_force:
        return None
    mine = tx.one("SELECT cabinet FROM validation_ids WHERE vid = ?", (in_force,)) if in_force else None
    if mine and mine[0] == name:  # given and set, the process stopped before it recorded so: adopted
        validation_set(tx, name, in_force, now)
        return None
    top = tx.one("SELECT COALESCE(MAX(vid), 0) FROM validation_ids")
    vid = (top[0] if top else 0) + 1
    if vid > VID_MAX:
        raise RuntimeError("every validation id has been given")
    tx.run("INSERT INTO validation_ids (vid, cabinet, given_at) VALUES (?, ?, ?)", (vid, name, now))
    return vid


def validation_set(tx: Tx, name: str, vid: int, now: int) -> None:
    tx.run("UPDATE cabinets SET validation_id = ? WHERE name = ?", (vid, name))
    event(tx, name, now, "validation", f"validation id {vid} set (SAS 4C)")


ORDERS = {"enable": "enabled", "disable": "disabled"}


def order(tx: Tx, name: str, what: str, by: str, now: int) -> bool:
    """The centre's order to enable or disable a machine (SAS 02/01, which the site controller sends
    until the machine takes it); False: no such cabinet."""
    if what not in ORDERS:
        raise ValueError(f"an order is one of {sorted(ORDERS)}, not {what!r}")
    if tx.run("UPDATE cabinets SET wanted = ? WHERE name = ?", (ORDERS[what], name)) != 1:
        return False
    event(tx, name, now, "order", f"{what} ordered by {by}")
    return True


def pending_order(tx: Tx, name: str) -> str | None:
    """The order the machine has not taken yet: enabled, disabled or None."""
    row = tx.one("SELECT wanted, applied FROM cabinets WHERE name = ?", (name,))
    return row[0] if row and row[0] is not None and row[0] != row[1] else None


def order_taken(tx: Tx, name: str, state: str, now: int) -> None:
    tx.run("UPDATE cabinets SET applied = ? WHERE name = ?", (state, name))
    event(tx, name, now, "order", f"{state} (SAS {'02' if state == 'enabled' else '01'} taken)")


def connected(tx: Tx, name: str) -> None:
    """A new connection: an order in force is sent again (the machine keeps its own across a power
    cut, docs/sas.md; sending it again changes nothing there)."""
    tx.run("UPDATE cabinets SET applied = NULL WHERE name = ?", (name,))
