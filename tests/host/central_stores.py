"""The central system's stores for its tests: SQLite in the test's directory, or a database of its
own on one private PostgreSQL server per test process (central/pg_local.py: Debian's package,
started on first use, removed when the process ends)."""
from __future__ import annotations

import atexit
import itertools
from pathlib import Path

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
