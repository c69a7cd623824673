"""A private PostgreSQL server in a directory, for the tests and `make floor DB=postgres`: Debian's
`postgresql` package (`make postgres-tools` installs it when missing) started with its own
`initdb` and `pg_ctl`, listening on a Unix socket in that directory only (no TCP port to collide
on). The server refuses to run as root: as root it runs as the package's `postgres` user, which
is given the directory."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

PACKAGES = ("postgresql",)


def bindir() -> Path | None:
    """Debian's PostgreSQL programs (the highest version installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


class LocalPostgres:
    def __init__(self, where: str | Path | None = None) -> None:
        self.bin = bindir()
        if self.bin is None:
            raise RuntimeError("no PostgreSQL: run `make postgres-tools` (apt-get install -y "
                               + " ".join(PACKAGES) + ")")
        self.dir = Path(where or tempfile.mkdtemp(prefix="jeton-pg-"))
        self.data = self.dir / "data"
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> str:
        cmd = ["runuser", "-u", "postgres", "--", *args] if self.as_root else list(args)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if r.returncode:
            raise RuntimeError(f"{' '.join(args[:2])} failed ({r.returncode}): {r.stderr[-2000:]}")
        return r.stdout

    def start(self) -> "LocalPostgres":
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
            os.chmod(self.dir, 0o700)
        if not (self.data / "PG_VERSION").exists():
            self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                      "--no-sync", "-E", "UTF8")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-l", str(self.dir / "server.log"),
                  "-o", f"-k {self.dir} -c listen_addresses='' -c fsync=on", "start")
        return self

    def conninfo(self, dbname: str = "postgres") -> str:
        return f"host={self.dir} dbname={dbname} user=postgres"

    def create_db(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.conninfo(), autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.conninfo(name)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-m", "fast", "stop")

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
