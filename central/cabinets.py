"""The cabinets of a site as the central system knows them: what each said it is, whether it
answers, the validation ids given, the centre's orders (the machine's, SAS 02/01; its game's, SAS
09), and the events seen. A site's event is
stored under the sequence the site gave it (`central/ingest.py`: a replay stores nothing more); the
centre's own events (an order given, a validation id adopted) under the centre's sequence."""
from __future__ import annotations

from central.store import Tx

VID_MAX = 0xFFFFFF  # SAS 4C carries 3 bytes (docs/coupons.md)
ORDERS = {"enable": "enabled", "disable": "disabled"}


def add(tx: Tx, name: str, site: str, now: int) -> None:
    tx.run("INSERT INTO cabinets (name, site, status, status_since) VALUES (?, ?, 'new', ?) "
           "ON CONFLICT (name) DO NOTHING", (name, site, now))


def last_seq(tx: Tx, cabinet: str, origin: str = "site") -> int:
    row = tx.one("SELECT COALESCE(MAX(seq), 0) FROM events WHERE cabinet = ? AND origin = ?", (cabinet, origin))
    return row[0] if row else 0


def event(tx: Tx, cabinet: str, now: int, kind: str, detail: str, code: int | None = None,
          seq: int | None = None, origin: str = "site") -> bool:
    """Store an event under `seq` (None: the origin's next); False when that one was stored already."""
    if seq is None:
        seq = last_seq(tx, cabinet, origin) + 1
    return tx.run("INSERT INTO events (cabinet, origin, seq, at, kind, code, detail) VALUES (?, ?, ?, ?, ?, ?, ?) "
                  "ON CONFLICT (cabinet, origin, seq) DO NOTHING", (cabinet, origin, seq, now, kind, code, detail)) == 1


def describe(tx: Tx, name: str, machine_id: str, paytable: str, max_bet: int, denom_code: int) -> None:
    tx.run("UPDATE cabinets SET machine_id = ?, paytable = ?, max_bet = ?, denom_code = ? WHERE name = ?",
           (machine_id, paytable, max_bet, denom_code, name))


def set_status(tx: Tx, name: str, status: str, now: int) -> None:
    """online (it answers) or silent (it stopped answering), as the site saw it at `now`."""
    tx.run("UPDATE cabinets SET status = ?, status_since = ? WHERE name = ? AND status <> ?", (status, now, name, status))


def answered(tx: Tx, name: str, now: int) -> None:
    tx.run("UPDATE cabinets SET last_answer = ? WHERE name = ? AND (last_answer IS NULL OR last_answer < ?)",
           (now, name, now))


def validation_id_for(tx: Tx, name: str, in_force: int, now: int) -> int | None:
    """The validation id to set on a cabinet whose machine has `in_force` (SAS 4C read; 0 none):
    None when it already has the one this system gave it; else the next id this system never gave
    (a machine that lost its coupon memory must get an id it never had: docs/coupons.md), recorded
    as given before it is sent."""
    row = tx.one("SELECT validation_id FROM cabinets WHERE name = ?", (name,))
    if row and row[0] is not None and row[0] == in_force:
        return None
    mine = tx.one("SELECT cabinet FROM validation_ids WHERE vid = ?", (in_force,)) if in_force else None
    if mine and mine[0] == name:  # given and set, the site stopped before it said so: adopted
        validation_set(tx, name, in_force, now, origin="centre")
        return None
    top = tx.one("SELECT COALESCE(MAX(vid), 0) FROM validation_ids")
    vid = (top[0] if top else 0) + 1
    if vid > VID_MAX:
        raise RuntimeError("every validation id has been given")
    tx.run("INSERT INTO validation_ids (vid, cabinet, given_at) VALUES (?, ?, ?)", (vid, name, now))
    return vid


def validation_set(tx: Tx, name: str, vid: int, now: int, seq: int | None = None, origin: str = "site") -> None:
    """The machine took validation id `vid` (once: a replay of the event changes nothing)."""
    if event(tx, name, now, "validation", f"validation id {vid} set (SAS 4C)", seq=seq, origin=origin):
        tx.run("UPDATE cabinets SET validation_id = ? WHERE name = ?", (vid, name))


# What an order is for: the machine (SAS 02/01) or its game 1 (SAS 09, docs/sas.md: the one game a
# Jeton cabinet offers), each with its column of the order in force, the column of the order the
# machine took, and its events' kind.
TARGETS = {"machine": ("wanted", "applied", "order"), "game": ("game_wanted", "game_applied", "game")}
GAME = 1


def _target(target: str) -> tuple[str, str, str]:
    if target not in TARGETS:
        raise ValueError(f"an order is for one of {sorted(TARGETS)}, not {target!r}")
    return TARGETS[target]


def taken_detail(target: str, state: str) -> str:
    """The event's text when the machine took an order."""
    if target == "game":
        return f"game {GAME} {state} (SAS 09 taken)"
    return f"{state} (SAS {'02' if state == 'enabled' else '01'} taken)"


def order(tx: Tx, name: str, what: str, by: str, now: int, target: str = "machine") -> bool:
    """The centre's order to enable or disable a machine (SAS 02/01) or its game 1 (SAS 09), which
    the site controller sends until the machine takes it; False: no such cabinet."""
    wanted, _, kind = _target(target)
    if what not in ORDERS:
        raise ValueError(f"an order is one of {sorted(ORDERS)}, not {what!r}")
    if tx.run(f"UPDATE cabinets SET {wanted} = ? WHERE name = ?", (ORDERS[what], name)) != 1:
        return False
    event(tx, name, now, kind, (f"game {GAME} " if target == "game" else "") + f"{what} ordered by {by}",
          origin="centre")
    return True


def pending_order(tx: Tx, name: str, target: str = "machine") -> str | None:
    """The order the machine has not taken yet: enabled, disabled or None."""
    wanted, applied, _ = _target(target)
    row = tx.one(f"SELECT {wanted}, {applied} FROM cabinets WHERE name = ?", (name,))
    return row[0] if row and row[0] is not None and row[0] != row[1] else None


def order_taken(tx: Tx, name: str, state: str, now: int, seq: int | None = None, target: str = "machine") -> None:
    """The machine took the order (once: a replay of the event changes nothing)."""
    _, applied, kind = _target(target)
    if state not in ORDERS.values():
        raise ValueError(f"an order taken is one of {sorted(ORDERS.values())}, not {state!r}")
    if event(tx, name, now, kind, taken_detail(target, state), seq=seq):
        tx.run(f"UPDATE cabinets SET {applied} = ? WHERE name = ?", (state, name))


def connected(tx: Tx, name: str) -> None:
    """A new connection: the orders in force (the machine's, its game's) are sent again (the machine
    keeps its own across a power cut, docs/sas.md; sending one again changes nothing there)."""
    tx.run("UPDATE cabinets SET applied = NULL, game_applied = NULL WHERE name = ?", (name,))
