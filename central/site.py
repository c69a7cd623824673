"""The site controller: polls each cabinet of a site over its SAS line through the project's host
(`sim/sas_host.py`), one thread per line, and writes what it reads to the central store.

Each cycle: general polls until the machine has no exception left (each one an event); on a 3D
exception (a coupon printed), and every `meter_every` seconds, the coupons the machine has not had
read (4D); every `meter_every` seconds a meter snapshot (2F and 1C, `central/meters.py`).

A coupon is read so that a crash at any step loses none and records none twice: 4D FF (look ahead:
the machine keeps the record unread), the record committed (kept once under its control number),
then 4D 00 (the machine marks it read). Killed before the commit, the same record is looked at
again; killed after it, it is committed again as nothing new, then read.

At connection (and after the cabinet was silent) the controller reads 54 and 1F, and 4C: a vlt
machine without the validation id this system gave it is given one (`central/cabinets.py`)."""
from __future__ import annotations

import threading
import time
from typing import Callable

from central import cabinets, coupons, meters, sas_reads
from central.crash import point as crash_point
from central.store import Store
from sim.sas_host import SasHost

POLL_S = 0.2  # a general poll every 200 ms per cabinet (a vlt needs one within 5 s: docs/sas.md)
METER_S = 2.0
EXCEPTION_COUPON = 0x3D  # a cash out ticket has been printed (SAS Table A-1)


class CabinetPoller:
    def __init__(self, store: Store, site: str, name: str, sas_path: str, clock: Callable[[], float] = time.time,
                 meter_every: float = METER_S, poll_every: float = POLL_S, timeout: float = 0.5) -> None:
        self.store = store
        self.site = site
        self.name = name
        self.sas_path = sas_path
        self.clock = clock
        self.meter_every = meter_every
        self.poll_every = poll_every
        self.host = SasHost(sas_path, timeout=timeout)
        self.connected = False
        self.max_bet: int | None = None
        self.coupon_machine = False
        self.next_meters = 0.0
        self.cycles = 0  # completed poll cycles (a test waits on it instead of sleeping)
        self.changed = threading.Condition()
        with store.transaction() as tx:
            cabinets.add(tx, name, site, int(clock()))

    def now(self) -> int:
        return int(self.clock())

    def close(self) -> None:
        self.host.close()

    def connect(self) -> None:
        self.host.sync()
        self.describe()
        with self.store.transaction() as tx:
            cabinets.connected(tx, self.name)
        try:
            vid, _ = sas_reads.validation_id(self.host)
        except TimeoutError:  # a machine without a coupon memory ignores 4C (docs/sas.md): no coupons
            self.coupon_machine = False
            self.host.sync()
            self.connected = True
            return
        self.coupon_machine = True
        with self.store.transaction() as tx:
            give = cabinets.validation_id_for(tx, self.name, vid, self.now())
        if give is not None:
            got, _ = sas_reads.validation_id(self.host, give)
            if got != give:
                raise ValueError(f"4C: the machine kept validation id {got}, not {give}")
            with self.store.transaction() as tx:
                cabinets.validation_set(tx, self.name, give, self.now())
        self.connected = True

    def describe(self) -> None:
        """54 and 1F: what the machine is (read again with each snapshot: a vlt names its game
        only once its configuration is settled, and a new configuration changes it)."""
        info = sas_reads.machine_info(self.host)
        self.max_bet = info.max_bet
        with self.store.transaction() as tx:
            cabinets.describe(tx, self.name, info.machine_id, info.paytable, info.max_bet, info.denom_code)

    def apply_order(self) -> None:
        """The centre's enable/disable order, sent until taken: 02 or 01; a NACK (the state table
        refuses 01 mid-game or mid-payout, docs/sas.md) is tried again next cycle."""
        with self.store.transaction(write=False) as tx:
            want = cabinets.pending_order(tx, self.name)
        if want is None:
            return
        answer = self.host.command(0x02 if want == "enabled" else 0x01)
        if answer is None:
            raise TimeoutError(f"no answer to {'02' if want == 'enabled' else '01'}")
        if answer == self.host.address:
            with self.store.transaction() as tx:
                cabinets.order_taken(tx, self.name, want, self.now())

    def read_coupons(self) -> int:
        """Every coupon the machine has not had read: (look, commit, read) each; how many new."""
        new = 0
        for _ in range(64):  # the coupon memory's CAPACITY: a loop that cannot run away
            rec = sas_reads.coupon(self.host, 0xFF)
            if rec is None:
                return new
            crash_point("coupon-looked")
            with self.store.transaction() as tx:
                if coupons.record(tx, self.name, rec, self.now()):
                    new += 1
                    cabinets.event(tx, self.name, self.now(), "coupon", f"coupon {rec.number} {rec.cents} cents")
            crash_point("coupon-recorded")
            read = sas_reads.coupon(self.host, 0x00)
            if read is not None and read.number != rec.number:  # cannot be: FF named the oldest unread
                with self.store.transaction() as tx:
                    coupons.record(tx, self.name, read, self.now())
        return new

    def cycle(self) -> None:
        """One poll cycle; raises TimeoutError/ValueError/OSError when the machine does not answer."""
        if not self.connected:
            self.connect()
        seen = self.host.exceptions()
        now = self.now()
        with self.store.transaction() as tx:
            cabinets.answered(tx, self.name, now)
            for code in seen:
                cabinets.event(tx, self.name, now, "exception", f"SAS exception {code:02X}", code)
        self.apply_order()
        if self.coupon_machine and (EXCEPTION_COUPON in seen or time.monotonic() >= self.next_meters):
            self.read_coupons()
        if time.monotonic() >= self.next_meters:
            self.describe()
            snap = sas_reads.snapshot_meters(self.host)
            with self.store.transaction() as tx:
                meters.store(tx, self.name, snap, self.now(), self.max_bet)
            self.next_meters = time.monotonic() + self.meter_every

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.cycle()
            except (TimeoutError, ValueError, OSError) as e:
                self.connected = False  # a machine back from silence is asked who it is again
                with self.store.transaction() as tx:
                    cabinets.missed(tx, self.name, self.now(), str(e) or type(e).__name__)
            with self.changed:
                self.cycles += 1
                self.changed.notify_all()
            stop.wait(self.poll_every)

    def wait_cycles(self, n: int, timeout: float = 30.0) -> None:
        """Until n more cycles have run (a test's way to know a poll happened, not a sleep)."""
        with self.changed:
            want = self.cycles + n
            if not self.changed.wait_for(lambda: self.cycles >= want, timeout):
                raise TimeoutError(f"{self.name}: {n} poll cycles not done in {timeout} s")


class SiteController:
    def __init__(self, store: Store, site: str, lines: dict[str, str], **kw) -> None:
        self.pollers = {name: CabinetPoller(store, site, name, path, **kw) for name, path in lines.items()}
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []

    def start(self) -> "SiteController":
        for p in self.pollers.values():
            t = threading.Thread(target=p.run, args=(self.stop,), name=f"poll-{p.name}", daemon=True)
            t.start()
            self.threads.append(t)
        return self

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(10)
        for p in self.pollers.values():
            p.close()


def main(argv: list[str] | None = None) -> int:
    """python -m central.site --db PATH [--site NAME] CABINET=SAS_PATH ...: poll until SIGTERM/SIGINT."""
    import argparse
    import signal

    from central.store import open_store

    ap = argparse.ArgumentParser(prog="python -m central.site")
    ap.add_argument("--db", required=True, help="the store: sqlite:PATH or postgresql:CONNINFO")
    ap.add_argument("--site", default="site-1")
    ap.add_argument("lines", nargs="+", metavar="CABINET=SAS_PATH")
    args = ap.parse_args(argv)
    lines = dict(line.split("=", 1) for line in args.lines)
    site = SiteController(open_store(args.db), args.site, lines).start()
    signal.signal(signal.SIGTERM, lambda *_: site.stop.set())
    print("site: polling " + " ".join(lines), flush=True)
    try:
        site.stop.wait()
    except KeyboardInterrupt:
        pass
    site.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
