"""The central system's stores for its tests: SQLite in the test's directory, or a database of its
own on one private PostgreSQL server per test process (central/pg_local.py: Debian's package,
started on first use, removed when the process ends)."""
from __future__ import annotations

import atexit
import itertools
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from central.pg_local import LocalPostgres, bindir
from central.store import Store, open_store

ENGINES = ("sqlite", "postgresql")
_server: list[LocalPostgres] = []
_names = itertools.count(1)


def server() -> LocalPostgres:
    if not _server:
        if bindir() is None:  # make test installs it (postgres-tools); a bare pytest says how
            pytest.fail("no PostgreSQL: run `make postgres-tools` (apt-get install -y postgresql)")
        pg = LocalPostgres().start()
        atexit.register(pg.remove)
        _server.append(pg)
    return _server[0]


def url(engine: str, where: Path) -> str:
    """A new, empty store's URL (central/store.py open_store)."""
    if engine == "sqlite":
        return f"sqlite:{where / 'central.db'}"
    return "postgresql:" + server().create_db(f"t{next(_names)}")


def new_store(engine: str, where: Path) -> tuple[Store, str]:
    u = url(engine, where)
    return open_store(u), u


@contextmanager
def out_of_reach(engine: str, store: Store, url: str) -> Iterator[None]:
    """The store out of reach for every new connection (those of a site controller's threads started
    inside): SQLite's file gone (a directory in its place, which sqlite3 cannot open, as a disk
    unmounted), PostgreSQL's database refusing connections (`ALLOW_CONNECTIONS false`, the open ones
    ended) while the server runs on for the other tests' databases. This thread's connection is
    closed first; the store is as it was after the block."""
    import psycopg

    store.close()
    if engine == "sqlite":
        db = Path(url.removeprefix("sqlite:"))
        away = db.parent / "away"
        away.mkdir()
        files = [f for f in db.parent.glob(db.name + "*")]
        for f in files:
            f.rename(away / f.name)
        db.mkdir()
        try:
            yield
        finally:
            db.rmdir()
            for f in files:
                (away / f.name).rename(f)
            away.rmdir()
        return
    name = re.search(r"dbname=(\S+)", url)
    assert name, url
    with psycopg.connect(server().conninfo(), autocommit=True) as con:
        con.execute(f'ALTER DATABASE "{name[1]}" ALLOW_CONNECTIONS false')
        con.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name[1],))
    try:
        yield
    finally:
        with psycopg.connect(server().conninfo(), autocommit=True) as con:
            con.execute(f'ALTER DATABASE "{name[1]}" ALLOW_CONNECTIONS true')
