"""The central system's storage: one small interface, the schema written once (`central/schema.sql`).
SQLite (the standard library's `sqlite3`) is the embedded default; PostgreSQL (psycopg 3) the
store of a network that outgrows one host, over the same schema and statements.

Statements are written with `?` placeholders, which SQLite takes as they are; an engine with
another style translates them in its `Tx.run`. A transaction is all or nothing: the context manager
commits when its block ends and rolls back when the block raises, or when the process dies in it."""
from __future__ import annotations

import sqlite3
import threading
import time
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Protocol, Sequence

SCHEMA = Path(__file__).with_name("schema.sql")


def statements(text: str | None = None) -> list[str]:
    """The schema's statements: separated by lines holding only ';'."""
    text = SCHEMA.read_text() if text is None else text
    out = []
    for chunk in text.split("\n;\n"):
        body = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("--")).strip()
        if body:
            out.append(body.rstrip(";"))
    return out


class Tx(Protocol):
    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute; the number of rows changed."""

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple | None: ...

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]: ...


# What a write transaction changes, for its locks (PostgresStore): a cabinet's rows, a coupon's, a
# cashier's request, a degraded row (what, name), or the validation ids given. Each kind is a class
# of PostgreSQL's two-key advisory locks; the name's CRC-32 is the second key (two names that
# collide only make their writers wait for each other).
Key = tuple[str, str]
LOCK_CLASSES = {"cabinet": 1, "coupon": 2, "request": 3, "degraded": 4, "validation-ids": 5}


def lock_key(key: Key) -> tuple[int, int]:
    """The two 32-bit keys of pg_advisory_xact_lock(int, int) for `key`."""
    h = zlib.crc32(key[1].encode())
    return LOCK_CLASSES[key[0]], h - (1 << 32) if h >= 1 << 31 else h


def cabinet(name: str) -> Key:
    return ("cabinet", name)


class Store(Protocol):
    kind: str  # sqlite, postgresql
    UNREACHABLE: tuple[type[BaseException], ...]  # the engine's errors of a store out of reach
    health: "StoreHealth"

    def transaction(self, write: bool = True, keys: Sequence[Key] | None = None) -> Any:
        """A context manager giving a Tx; committed at the end of the block. keys: what a write
        changes (None: anything)."""

    def close(self) -> None: ...


class StoreHealth:
    """This process's last write transaction: failed since when (the first of a run of failures)
    and why, or None; a write that commits clears it (central/degraded.py shows it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failed: tuple[float, str] | None = None

    def failed(self, now: float, error: BaseException) -> None:
        with self._lock:
            since = self._failed[0] if self._failed else now
            self._failed = (since, f"{type(error).__name__}: {str(error).strip()[:200]}")

    def written(self) -> None:
        with self._lock:
            self._failed = None

    def state(self) -> tuple[float, str] | None:
        with self._lock:
            return self._failed


class Watched:
    """A store's transactions, watched: a write that fails because the store is out of reach
    (`UNREACHABLE`) is recorded in `health`, one that commits clears it."""

    UNREACHABLE: tuple[type[BaseException], ...] = ()
    health: StoreHealth

    def _transaction(self, write: bool, keys: Sequence[Key] | None) -> Any:
        raise NotImplementedError

    @contextmanager
    def transaction(self, write: bool = True, keys: Sequence[Key] | None = None) -> Iterator[Any]:
        """keys: what a write transaction changes (`Key`s), so that writers of other keys go on
        beside it (PostgreSQL); None: it may change anything, and goes alone."""
        try:
            with self._transaction(write, keys) as tx:
                yield tx
        except self.UNREACHABLE as e:
            if write:
                self.health.failed(time.time(), e)
            raise
        if write:
            self.health.written()


class SqliteTx:
    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.con.execute(sql, tuple(params)).rowcount

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple | None:
        return self.con.execute(sql, tuple(params)).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        return self.con.execute(sql, tuple(params)).fetchall()


class SqliteStore(Watched):
    """A database file; one connection per thread. Write-ahead log and synchronous=FULL: a commit
    returned is on the disk, so a process killed after it keeps it, and one killed before it keeps
    nothing of the transaction. A write transaction starts with BEGIN IMMEDIATE: writers wait for
    each other (busy_timeout) instead of failing half-way."""

    kind = "sqlite"
    UNREACHABLE = (sqlite3.OperationalError,)  # locked past busy_timeout, the disk, the file gone

    def __init__(self, path: str | Path, busy_ms: int = 30000) -> None:
        self.health = StoreHealth()
        self.path = str(path)
        self.busy_ms = busy_ms
        self._local = threading.local()
        with self.transaction() as tx:
            for sql in statements():
                tx.run(sql)

    def _con(self) -> sqlite3.Connection:
        con = getattr(self._local, "con", None)
        if con is None:
            con = sqlite3.connect(self.path, isolation_level=None, timeout=self.busy_ms / 1000)
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=FULL")
            con.execute(f"PRAGMA busy_timeout={int(self.busy_ms)}")
            self._local.con = con
        return con

    @contextmanager
    def _transaction(self, write: bool, keys: Sequence[Key] | None) -> Iterator[SqliteTx]:
        con = self._con()  # keys: one writer at a time here whatever it changes
        con.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield SqliteTx(con)
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")

    def close(self) -> None:
        con = getattr(self._local, "con", None)
        if con is not None:
            con.close()
            self._local.con = None


class PostgresTx:
    def __init__(self, cur: Any) -> None:
        self.cur = cur

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s")  # the schema's statements hold no '?' of their own

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        self.cur.execute(self._sql(sql), tuple(params))
        return self.cur.rowcount

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple | None:
        self.cur.execute(self._sql(sql), tuple(params))
        return self.cur.fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        self.cur.execute(self._sql(sql), tuple(params))
        return self.cur.fetchall()


class PostgresStore(Watched):
    """PostgreSQL through psycopg 3, one connection per thread, the same schema and statements.
    A write transaction first takes transaction-scoped advisory locks: WRITE_LOCK shared, then one
    lock per key it names (sorted: two writers never wait for each other in a circle), so writers
    of different cabinets go on side by side while every check-then-write of this room holds under
    PostgreSQL's default READ COMMITTED without retries: a site's or the centre's next sequence of
    a cabinet (its `cabinet` key), a coupon read unpaid then marked paid (`coupon`, and the
    cashier's `request`), the next validation id (`validation-ids`: the highest given plus one, a
    check over every cabinet's ids, so those go one at a time, never given twice). A write that
    names no keys takes WRITE_LOCK alone (exclusive): it waits for every writer and they for it.
    Readers wait for none."""

    WRITE_LOCK = 0x4A45544F  # "JETO": the one-key advisory lock every writer takes

    kind = "postgresql"

    def __init__(self, conninfo: str) -> None:
        import psycopg  # only where PostgreSQL is used: requirements.txt pins it

        self._psycopg = psycopg
        self.UNREACHABLE = (psycopg.OperationalError, psycopg.InterfaceError)  # the server gone, refused
        self.health = StoreHealth()
        self.conninfo = conninfo
        self._local = threading.local()
        with self.transaction() as tx:
            for sql in statements():
                tx.cur.execute(sql)

    def _con(self) -> Any:
        con = getattr(self._local, "con", None)
        if con is None or con.closed:
            con = self._psycopg.connect(self.conninfo)
            self._local.con = con
        return con

    @contextmanager
    def _transaction(self, write: bool, keys: Sequence[Key] | None) -> Iterator[PostgresTx]:
        con = self._con()
        with con.transaction(), con.cursor() as cur:
            if write and keys is None:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (self.WRITE_LOCK,))
            elif write:
                cur.execute("SELECT pg_advisory_xact_lock_shared(%s)", (self.WRITE_LOCK,))
                for pair in sorted({lock_key(k) for k in keys}):  # in one order: never a circle of waits
                    cur.execute("SELECT pg_advisory_xact_lock(%s, %s)", pair)
            yield PostgresTx(cur)

    def close(self) -> None:
        con = getattr(self._local, "con", None)
        if con is not None:
            con.close()
            self._local.con = None


def open_store(url: str) -> Store:
    """`postgresql:CONNINFO` (a libpq connection string or URI after the prefix) or `sqlite:PATH`
    (or a bare path)."""
    if url.startswith("postgresql:"):
        return PostgresStore(url.removeprefix("postgresql:"))
    return SqliteStore(url.removeprefix("sqlite:"))
