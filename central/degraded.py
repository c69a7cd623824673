"""What is degraded in the central system, each with since when, for the floor page and
`GET /api/degraded`:

- `silent`, a cabinet: the site saw it stop answering (the cabinets' status, `central/site.py`);
- `link`, a site: its NATS server does not answer the relay over the leaf-node link, so its
  messages wait in its stream (`central/broker.py`);
- `relay`, a site: the relay stopped on a message of that site it cannot apply, unacked, and
  tries it again every `RETRY_S`;
- `store`: this process's last write to the store failed (`central/store.py` `StoreHealth`), or a
  read for the page fails now.

The `link` and `relay` rows are kept in the store (table `degraded`), so a page served by another
process than the relay's shows them; the store's own failure is this process's to know."""
from __future__ import annotations

from typing import Any

from central.store import Store, Tx

RETRY_S = 1.0  # a message the relay could not apply is tried again after this


def mark(tx: Tx, what: str, name: str, now: int, detail: str) -> None:
    """`what` of `name` is degraded since `now`, unless it was already (its first since is kept)."""
    if tx.run("UPDATE degraded SET detail = ? WHERE what = ? AND name = ?", (detail, what, name)) == 0:
        tx.run("INSERT INTO degraded (what, name, since, detail) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (what, name) DO NOTHING", (what, name, now, detail))


def clear(tx: Tx, what: str, name: str) -> None:
    tx.run("DELETE FROM degraded WHERE what = ? AND name = ?", (what, name))


def entry(what: str, name: str, since: int, detail: str) -> dict[str, Any]:
    return {"what": what, "name": name, "since": since, "detail": detail}


def collect(store: Store, now: float) -> list[dict[str, Any]]:
    """Everything degraded, the store first; with the store unreachable, that alone."""
    out = []
    failed = store.health.state()
    if failed:
        out.append(entry("store", store.kind, int(failed[0]), f"the last write failed: {failed[1]}"))
    try:
        with store.transaction(write=False) as tx:
            rows = tx.all("SELECT what, name, since, detail FROM degraded ORDER BY since, what, name")
            silent = tx.all("SELECT name, status_since FROM cabinets WHERE status = 'silent' ORDER BY name")
    except store.UNREACHABLE as e:
        if not failed:
            out.append(entry("store", store.kind, int(now), f"a read failed: {type(e).__name__}: {str(e).strip()[:200]}"))
        return out
    out += [entry(*r) for r in rows]
    out += [entry("silent", name, since, "not answering its SAS polls") for name, since in silent]
    return out
