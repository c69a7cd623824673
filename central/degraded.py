"""What is degraded in the central system, each with since when, for the floor page and
`GET /api/degraded`:

- `silent`, a cabinet: the site saw it stop answering (the cabinets' status, `central/site.py`);
- `link`, a site: its NATS server does not answer the relay over the leaf-node link, so its
  messages wait in its stream (`central/broker.py`);
- `relay`, a site: the relay stopped on a message of that site it cannot apply, unacked, and
  tries it again every `RETRY_S`; the message is kept in the table `unapplied` with the reason,
  until it is applied or an operator sets it aside (`set_aside`: the page's API, or
  `python -m central.degraded set-aside`), after which the relay goes on with the next;
- `waiting`, a cabinet: its site controller holds messages it could not send (the centre out of
  reach), numbered and sent in order once the centre answers;
- `store`: this process's last write to the store failed (`central/store.py` `StoreHealth`), or a
  read for the page fails now.

The `link` and `relay` rows are kept in the store (table `degraded`), so a page served by another
process than the relay's shows them; the store's own failure and a site controller's `waiting`
rows are the process's own to know (`LOCAL`): a page served in the controller's process shows them
(`make floor`), and `python -m central.site` prints them."""
from __future__ import annotations

import json
import threading
from typing import Any

from central.store import Key, Store, Tx

RETRY_S = 1.0  # a message the relay could not apply is tried again after this
SET_ASIDE = "set aside"
APPLIED = "applied"


def relay_key(site: str) -> Key:
    """What the relay's transactions on a site's messages and an operator's set-aside share: they
    go one at a time (PostgreSQL's lock per key, central/store.py)."""
    return ("degraded", f"relay:{site}")


def mark(tx: Tx, what: str, name: str, now: int, detail: str) -> None:
    """`what` of `name` is degraded since `now`, unless it was already (its first since is kept)."""
    if tx.run("UPDATE degraded SET detail = ? WHERE what = ? AND name = ?", (detail, what, name)) == 0:
        tx.run("INSERT INTO degraded (what, name, since, detail) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (what, name) DO NOTHING", (what, name, now, detail))


def clear(tx: Tx, what: str, name: str) -> None:
    tx.run("DELETE FROM degraded WHERE what = ? AND name = ?", (what, name))


def entry(what: str, name: str, since: int, detail: str) -> dict[str, Any]:
    return {"what": what, "name": name, "since": since, "detail": detail}


class Local:
    """The rows only this process knows (the store cannot be asked for them: it may be what is out
    of reach): a site controller's `waiting` cabinets."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str], tuple[int, str]] = {}

    def mark(self, what: str, name: str, now: int, detail: str) -> None:
        with self._lock:
            since = self._rows.get((what, name), (now, ""))[0]
            self._rows[(what, name)] = (since, detail)

    def clear(self, what: str, name: str) -> None:
        with self._lock:
            self._rows.pop((what, name), None)

    def rows(self) -> list[dict[str, Any]]:
        with self._lock:
            return [entry(what, name, since, detail) for (what, name), (since, detail) in sorted(
                self._rows.items(), key=lambda kv: (kv[1][0], kv[0]))]


LOCAL = Local()


def collect(store: Store, now: float) -> list[dict[str, Any]]:
    """Everything degraded: the store first, this process's own rows, then the store's rows; with
    the store unreachable, the first two alone."""
    out = []
    failed = store.health.state()
    if failed:
        out.append(entry("store", store.kind, int(failed[0]), f"the last write failed: {failed[1]}"))
    out += LOCAL.rows()
    try:
        with store.transaction(write=False) as tx:
            rows = tx.all("SELECT what, name, since, detail FROM degraded ORDER BY since, what, name")
            silent = tx.all("SELECT name, status_since FROM cabinets WHERE status = 'silent' ORDER BY name")
    except store.UNREACHABLE as e:
        if not failed:
            out.insert(0, entry("store", store.kind, int(now),
                                f"a read failed: {type(e).__name__}: {str(e).strip()[:200]}"))
        return out
    out += [entry(*r) for r in rows]
    out += [entry("silent", name, since, "not answering its SAS polls") for name, since in silent]
    return out


# A message the relay cannot apply (central/broker.py), kept in `unapplied` until it is applied or
# set aside. Its number is its sequence in the centre's stream (what the relay's row names).

class Refused(Exception):
    """An operator's set-aside refused, saying why."""


class NotFound(Refused):
    """No such site, or no message of the site that the relay could not apply."""


class NotBlocking(Refused):
    """The message is known, but it is not the one the relay is stopped on (applied, set aside)."""


def stuck(tx: Tx, site: str, seq: int, subject: str, message: str, reason: str, now: int) -> None:
    """The relay could not apply message `seq` of `site`: kept with the reason, and the site's
    `relay` row says so (its first since kept)."""
    tx.run("INSERT INTO unapplied (site, seq, subject, message, reason, since) VALUES (?, ?, ?, ?, ?, ?) "
           "ON CONFLICT (site, seq) DO NOTHING", (site, seq, subject, message, reason, now))
    # failed again after it was applied once (a redelivery): blocking again; never a set-aside undone
    tx.run("UPDATE unapplied SET reason = ?, resolved = NULL, resolved_at = NULL, resolved_by = NULL "
           "WHERE site = ? AND seq = ? AND (resolved IS NULL OR resolved = ?)", (reason, site, seq, APPLIED))
    mark(tx, "relay", site, now, f"stopped on message {seq} ({subject}): {reason}; what comes after it waits: "
         f"an operator sets it aside (POST /api/relay/{site}/set-aside, "
         f"python -m central.degraded set-aside {site} {seq} --by NAME)")


def resolution(tx: Tx, site: str, seq: int) -> str | None:
    """What became of a message the relay could not apply: None (blocking, or never stuck),
    `APPLIED` or `SET_ASIDE`."""
    row = tx.one("SELECT resolved FROM unapplied WHERE site = ? AND seq = ?", (site, seq))
    return row[0] if row else None


def applied(tx: Tx, site: str, seq: int, now: int) -> None:
    """A message the relay had stopped on was applied after all (the store took it)."""
    if tx.run("UPDATE unapplied SET resolved = ?, resolved_at = ? WHERE site = ? AND seq = ? AND resolved IS NULL",
              (APPLIED, now, site, seq)):
        clear(tx, "relay", site)


def set_aside(tx: Tx, site: str, seq: int, by: str, now: int) -> dict[str, Any]:
    """The operator `by` sets aside message `seq` of `site`, the one the relay is stopped on: the
    relay acks it without applying it and goes on (kept in `unapplied` for the record). Raises
    NotFound (no such site, no such message) or NotBlocking (applied or set aside already)."""
    if not by.strip():
        raise ValueError("the operator's name is needed")
    row = tx.one("SELECT resolved, resolved_at, resolved_by FROM unapplied WHERE site = ? AND seq = ?", (site, seq))
    if row is None:
        if tx.one("SELECT 1 FROM cabinets WHERE site = ? UNION SELECT 1 FROM unapplied WHERE site = ?",
                  (site, site)) is None:
            raise NotFound(f"no site {site}")
        raise NotFound(f"site {site} has no message {seq} the relay could not apply")
    resolved, at, who = row
    if resolved is not None:
        blocking = tx.one("SELECT seq FROM unapplied WHERE site = ? AND resolved IS NULL", (site,))
        now_on = f"the relay is stopped on message {blocking[0]}" if blocking else "the relay is stopped on none"
        said = f"set aside by {who} at {at}" if resolved == SET_ASIDE else f"applied at {at}"
        raise NotBlocking(f"message {seq} of site {site} is not the one blocking: {said}; {now_on}")
    tx.run("UPDATE unapplied SET resolved = ?, resolved_at = ?, resolved_by = ? WHERE site = ? AND seq = ?",
           (SET_ASIDE, now, by, site, seq))
    mark(tx, "relay", site, now, f"message {seq} set aside by {by}: the relay goes on with the next")
    return {"site": site, "message": seq, "set_aside_by": by, "set_aside_at": now}


def unapplied(tx: Tx, which: str | None = SET_ASIDE) -> list[dict[str, Any]]:
    """The messages the relay could not apply: those set aside (`SET_ASIDE`), or still blocking
    (None), the oldest first; each with the message itself as the relay received it."""
    sql = ("SELECT site, seq, subject, message, reason, since, resolved_at, resolved_by FROM unapplied WHERE "
           + ("resolved IS NULL" if which is None else "resolved = ?") + " ORDER BY since, site, seq")
    rows = tx.all(sql, () if which is None else (which,))
    return [{"site": r[0], "message": r[1], "subject": r[2], "body": r[3], "reason": r[4], "since": r[5],
             "set_aside_at": r[6], "set_aside_by": r[7]} for r in rows]


def main(argv: list[str] | None = None) -> int:
    """python -m central.degraded --db URL show | set-aside SITE N --by NAME | aside"""
    import argparse
    import sys
    import time

    from central.store import open_store

    ap = argparse.ArgumentParser(prog="python -m central.degraded")
    ap.add_argument("--db", required=True, help="the store: sqlite:PATH or postgresql:CONNINFO")
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("show", help="what is degraded, and the messages the relay is stopped on")
    put = sub.add_parser("set-aside", help="set aside the message the relay is stopped on")
    put.add_argument("site")
    put.add_argument("message", type=int)
    put.add_argument("--by", required=True, help="the operator's name")
    sub.add_parser("aside", help="the messages set aside: by whom, when, the message itself")
    args = ap.parse_args(argv)
    store = open_store(args.db)
    try:
        if args.command == "show":
            for d in collect(store, time.time()):
                print(f"{d['what']} {d['name']} since {d['since']}: {d['detail']}")
            with store.transaction(write=False) as tx:
                for u in unapplied(tx, None):
                    print(f"blocking: site {u['site']} message {u['message']} ({u['subject']}) since {u['since']}: "
                          f"{u['reason']}\n  {u['body']}")
        elif args.command == "set-aside":
            try:
                with store.transaction(keys=[relay_key(args.site)]) as tx:
                    done = set_aside(tx, args.site, args.message, args.by, int(time.time()))
            except (Refused, ValueError) as e:
                print(f"refused: {e}", file=sys.stderr)
                return 1
            print(json.dumps(done))
        else:
            with store.transaction(write=False) as tx:
                for u in unapplied(tx):
                    print(json.dumps(u))
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
