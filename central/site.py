"""The site controller: polls each cabinet of a site over its SAS line through the project's host
(`sim/sas_host.py`), one thread per line, and sends what it reads to the centre as messages
(`central/ingest.py`) over its link: `central/centre.py` `Direct` (the store itself, one host) or
`central/broker.py` `JetStreamLink` (the site's NATS server, which forwards to the centre's and
holds what the centre has not had while the network is broken). `send` returns once the message is
durable (committed, or stored by the broker), so every step below is ordered after it.

Each cycle: general polls until the machine has no exception left (each one an event); the centre's
enable/disable orders (the machine's, 02/01; its game's, 09), sent until taken; on a 3D exception
(a coupon printed), and every `meter_every` seconds, the coupons the machine has not had read (4D);
every `meter_every` seconds a meter snapshot (2F and 1C, `central/meters.py`).

A coupon is read so that a crash at any step loses none and records none twice: 4D FF (look ahead:
the machine keeps the record unread), the record sent (kept once under its control number), then
4D 00 (the machine marks it read). Killed before the send, the same record is looked at again;
killed after it, it is sent again as nothing new, then read.

At connection (and after the cabinet was silent) the controller reads 54 and 1F, and 4C: a vlt
machine without the validation id the centre gave it is given one (asked of the centre).

A message the link cannot take (the centre, or the store behind `Direct`, out of reach) is held, in
order, and sent once the link answers: the cabinets are polled on meanwhile (their exceptions and
meters read and held). A controller started while the link is out of reach does not know the
centre's last sequences yet: it holds its messages unnumbered, and numbers them after the centre's
last (`last_seqs`) once it answers, so nothing is numbered twice. A message is numbered once, just
before it is first sent: one sent again (the link failed under it, perhaps after it was stored)
keeps its number and is stored once. A coupon is never held (the machine keeps it unread until it
is durable at the centre). While messages are held the cabinet is `waiting` (central/degraded.py)."""
from __future__ import annotations

import collections
import secrets
import threading
import time
from typing import Any, Callable, Protocol

from crccheck.crc import CrcKermit

from central import degraded, sas_reads
from central.cabinets import GAME
from central.crash import point as crash_point
from sim.sas_host import SasHost, bcd, crc

POLL_S = 0.2  # a general poll every 200 ms per cabinet (a vlt needs one within 5 s: docs/sas.md)
METER_S = 2.0
SILENT_AFTER = 3  # polls unanswered in a row before a cabinet is marked silent
EXCEPTION_COUPON = 0x3D  # a cash out ticket has been printed (SAS Table A-1)
VERIFY_S = 3600.0  # SAS 21 again every hour, besides at each connection
SIGNATURE_WAIT_S = 300.0  # a machine computes 21 a few ms a loop (docs/sas.md): over a 1 MB image, seconds
HOLD_MAX = 5000  # messages held per cabinet while the centre is out of reach (over an hour at METER_S)


def rom_signature(image: bytes, seed: int) -> int:
    """What SAS 21 must answer for `image` and `seed`: CRC-16/KERMIT from the seed (docs/sas.md;
    crccheck takes a reflected CRC's initial value unreflected: the seed's 16 bits reversed)."""
    return CrcKermit.calc(image, int(format(seed, "016b")[::-1], 2))


class Link(Protocol):
    def send(self, msg: dict[str, Any]) -> bool:
        """Durable when it returns; False: the link had this message already (nothing more stored)."""

    def ask(self, question: dict[str, Any]) -> dict[str, Any]: ...

    def last_seqs(self, site: str, cabinet: str) -> dict[str, int]: ...

    def close(self) -> None: ...


class CentreUnreachable(Exception):
    """The centre did not answer a question (a broken network): the cabinet is not at fault."""


class CabinetPoller:
    def __init__(self, link: Link, site: str, name: str, sas_path: str, clock: Callable[[], float] = time.time,
                 meter_every: float = METER_S, poll_every: float = POLL_S, timeout: float = 0.5,
                 approved_image: bytes | None = None, verify_every: float = VERIFY_S) -> None:
        """approved_image: the image the machine must run, checked by SAS 21 at each connection and
        every `verify_every` seconds (None: not checked)."""
        self.link = link
        self.approved_image = approved_image
        self.verify_every = verify_every
        self.signature: tuple[int, float] | None = None  # (seed, when asked) of a 21 not answered yet
        self.next_verify = 0.0
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
        self.in_force = 0  # the validation id the machine said it has (4C)
        self.no_game = False  # the machine refused 09 offering no game (said once, asked again every meter_every)
        self.next_game_order = 0.0
        self.vid_owed = False  # the centre not asked yet which validation id the machine must have
        self.next_meters = 0.0
        self.status = "new"  # as this controller last said: online, silent
        self.misses = 0
        # the last sequence numbered, per kind: a restart goes on after the link's (None: not known yet,
        # the link out of reach; asked again before anything is numbered)
        self.seq: dict[str, int] | None = None
        self.held: collections.deque[dict[str, Any]] = collections.deque()  # not sent yet, in order
        self.dropped = 0  # held snapshots and descriptions let go past HOLD_MAX (a later one has all they had)
        try:
            self.seq = link.last_seqs(site, name)
        except CentreUnreachable:
            pass
        self.cycles = 0  # completed poll cycles (a test waits on it instead of sleeping)
        self.changed = threading.Condition()

    def now(self) -> int:
        return int(self.clock())

    def close(self) -> None:
        self.host.close()

    def send(self, kind: str, **fields: Any) -> None:
        """Sent over the link, after what is held; held (in order) when the link is out of reach. A
        coupon is never held: CentreUnreachable, and the machine keeps it unread (4D 00 not sent)."""
        msg: dict[str, Any] = {"kind": kind, "site": self.site, "cabinet": self.name, "at": self.now(), **fields}
        if kind == "coupon":
            self.flush()
            self.link.send(msg)
            return
        self.held.append(msg)
        if len(self.held) > HOLD_MAX:
            self.let_go()
        try:
            self.flush()
        except CentreUnreachable as e:
            degraded.LOCAL.mark("waiting", self.name, self.now(), self.waiting(str(e)))

    def flush(self) -> None:
        """Send what is held, in order, each numbered once (after the centre's last sequences, asked
        first if not known yet); raises CentreUnreachable, what is left still held."""
        if self.seq is None:
            self.seq = self.link.last_seqs(self.site, self.name)
        while self.held:
            msg = self.held[0]
            if msg["kind"] in self.seq and "seq" not in msg:
                self.seq[msg["kind"]] += 1
                msg["seq"] = self.seq[msg["kind"]]  # kept if the send fails: sent again under it
            self.link.send(msg)
            self.held.popleft()
        self.dropped = 0
        degraded.LOCAL.clear("waiting", self.name)

    def let_go(self) -> None:
        """Past HOLD_MAX, the oldest snapshot or description (54, 1F) not numbered yet that a newer
        one of its kind follows is let go: each is absolute, so the newer has all it had; events
        are kept (held beyond HOLD_MAX if they must)."""
        newest = {msg["kind"]: i for i, msg in enumerate(self.held)}
        for i, msg in enumerate(self.held):
            if msg["kind"] in ("snapshot", "cabinet") and "seq" not in msg and i != newest[msg["kind"]]:
                del self.held[i]
                self.dropped += 1
                return

    def waiting(self, why: str) -> str:
        numbered = "" if self.seq is not None else ", to be numbered after the centre's last sequences"
        dropped = f"; {self.dropped} older snapshots and descriptions let go (HOLD_MAX)" if self.dropped else ""
        return (f"the centre out of reach ({why}): {len(self.held)} messages held{numbered}, sent once it "
                f"answers; the machine polled on{dropped}")

    def event(self, event: str, detail: str, **fields: Any) -> None:
        self.send("event", event=event, detail=detail, **fields)

    def connect(self) -> None:
        self.host.sync()
        self.signature = None  # a 21 asked before the machine went silent is asked again
        self.no_game, self.next_game_order = False, 0.0  # a game order refused before is tried at once
        self.next_verify = 0.0
        self.describe()
        self.send("connected")
        try:
            vid, _ = sas_reads.validation_id(self.host)
        except TimeoutError:  # a machine without a coupon memory ignores 4C (docs/sas.md): no coupons
            self.coupon_machine = False
            self.host.sync()
            self.connected = True
            return
        self.coupon_machine = True
        self.in_force = vid
        self.vid_owed = True
        self.connected = True
        self.settle_validation_id()

    def settle_validation_id(self) -> None:
        """Ask the centre which validation id the machine must have, and set it (4C). With the
        centre out of reach it is asked again later: the machine polls on meanwhile (one without an
        id prints no coupon and takes no money, docs/coupons.md; one with an id goes on with it)."""
        try:
            give = self.link.ask({"ask": "validation_id", "site": self.site, "cabinet": self.name,
                                  "in_force": self.in_force})["give"]
        except CentreUnreachable:
            return
        if give is not None:
            got, _ = sas_reads.validation_id(self.host, give)
            if got != give:
                raise ValueError(f"4C: the machine kept validation id {got}, not {give}")
            self.in_force = give
            self.event("validation", f"validation id {give} set (SAS 4C)", vid=give)
        self.vid_owed = False

    def describe(self) -> None:
        """54 and 1F: what the machine is (read again with each snapshot: a vlt names its game
        only once its configuration is settled, and a new configuration changes it)."""
        info = sas_reads.machine_info(self.host)
        self.max_bet = info.max_bet
        self.send("cabinet", machine_id=info.machine_id, paytable=info.paytable, max_bet=info.max_bet,
                  denom_code=info.denom_code)

    def apply_order(self) -> None:
        """The centre's orders, each sent until taken: the machine's (02 or 01) and its game's (09).
        A NACK (the state table refuses a disable mid-game or mid-payout, docs/sas.md) is tried
        again next cycle; a 09 refused by a machine that offers no game, every `meter_every`."""
        try:
            want = self.link.ask({"ask": "order", "site": self.site, "cabinet": self.name})
        except CentreUnreachable:
            return  # no order can come; the machine keeps the last it took (docs/sas.md)
        if want["order"] is not None:
            cmd = 0x02 if want["order"] == "enabled" else 0x01
            answer = self.host.command(cmd)
            if answer is None:
                raise TimeoutError(f"no answer to {cmd:02X}")
            if answer == self.host.address:
                self.event("order", f"{want['order']} (SAS {cmd:02X} taken)", applied=want["order"])
        if want.get("game") is not None and time.monotonic() >= self.next_game_order:
            self.order_game(want["game"])

    def order_game(self, want: str) -> None:
        """09 for game 1: enabled (00) or disabled (01). Refused, 51 tells why: a machine that
        offers no game (51: none implemented) is said so once and asked again every `meter_every`;
        any other refusal (mid-game) is tried again next cycle."""
        answer = self.host.command(0x09, bytes.fromhex(f"{GAME:04d}") + bytes([want == "disabled"]))
        if answer is None:
            raise TimeoutError("no answer to 09")
        if answer == self.host.address:
            self.no_game = False
            self.event("game", f"game {GAME} {want} (SAS 09 taken)", game_applied=want)
            return
        if bcd(self.host.checked(0x51, 6)) == 0:
            self.next_game_order = time.monotonic() + self.meter_every
            if not self.no_game:
                self.no_game = True
                self.event("game", f"game {GAME} {want} refused (SAS 09): the machine offers no game (SAS 51: "
                           f"0 games); asked again every {self.meter_every:g} s")

    def verify(self) -> None:
        """SAS 21 with a seed the machine cannot know beforehand; its answer comes on a general poll."""
        seed = secrets.randbelow(0x10000)
        if self.host.command(0x21, seed.to_bytes(2, "little")) != self.host.address:
            raise TimeoutError("21 not taken")
        self.signature = (seed, time.monotonic())
        self.next_verify = time.monotonic() + self.verify_every

    def signed(self, reply: bytes) -> None:
        """The machine's 21 answer (address, 21, signature LSB first, CRC): right, or the machine is
        disabled (01) and the centre told, which keeps it disabled (ingest)."""
        assert self.signature is not None and self.approved_image is not None
        seed, _ = self.signature
        self.signature = None
        got = int.from_bytes(reply[2:4], "little")
        want = rom_signature(self.approved_image, seed)
        if got == want:
            self.event("software", f"verified: SAS 21 signature {got:04X} for seed {seed:04X}", verified=True)
            return
        self.event("software", f"SAS 21 signature {got:04X} for seed {seed:04X}, the approved image's {want:04X}: "
                   "not the approved software, disabled", verified=False)
        if self.host.command(0x01) == self.host.address:
            self.event("order", "disabled (SAS 01 taken)", applied="disabled")

    def poll_exceptions(self) -> list[int]:
        """General polls until 00: the exceptions pending; a 21 answer owed comes on one of them."""
        out: list[int] = []
        for _ in range(64):
            if self.signature is None:
                code = self.host.general_poll()
            else:
                r = self.host.general_poll_reply(6)
                if len(r) == 6 and r[0] == self.host.address and r[1] == 0x21:
                    if crc(r[:-2]) != r[-2:]:
                        raise ValueError(f"21: bad CRC in {r.hex()}")
                    self.signed(r)
                    continue
                code = r[0] if len(r) == 1 else None
            if code is None:
                raise TimeoutError("no answer to a general poll")
            if code == 0:
                return out
            out.append(code)
        raise ValueError(f"more than 64 exceptions: {out}")

    def read_coupons(self) -> int:
        """Every coupon the machine has not had read: (look, send, read) each; how many."""
        n = 0
        for _ in range(64):  # the coupon memory's CAPACITY: a loop that cannot run away
            rec = sas_reads.coupon(self.host, 0xFF)
            if rec is None:
                return n
            crash_point("coupon-looked")
            self.send("coupon", number=rec.number, cents=rec.cents, ticket=rec.ticket, issued_at=rec.issued_at)
            crash_point("coupon-recorded")
            read = sas_reads.coupon(self.host, 0x00)
            if read is not None and read.number != rec.number:  # cannot be: FF named the oldest unread
                self.send("coupon", number=read.number, cents=read.cents, ticket=read.ticket,
                          issued_at=read.issued_at)
            self.event("coupon", f"coupon {rec.number} {rec.cents} cents read")
            n += 1
        return n

    def cycle(self) -> None:
        """One poll cycle; raises TimeoutError/ValueError/OSError when the machine does not answer."""
        if self.held or self.seq is None:
            try:
                self.flush()
            except CentreUnreachable:
                pass  # held on: the machine is polled all the same
        if not self.connected:
            self.connect()
        if self.approved_image is not None and self.signature is None and time.monotonic() >= self.next_verify:
            self.verify()
        if self.signature is not None and time.monotonic() - self.signature[1] > SIGNATURE_WAIT_S:
            self.event("software", f"no SAS 21 signature in {SIGNATURE_WAIT_S:.0f} s: asked again")
            self.signature = None
        seen = self.poll_exceptions()
        if self.status != "online":
            self.event("link", f"answering ({self.status} before)", status="online")
            self.status = "online"
        self.misses = 0
        for code in seen:
            self.event("exception", f"SAS exception {code:02X}", code=code)
        self.apply_order()
        if self.coupon_machine and (EXCEPTION_COUPON in seen or time.monotonic() >= self.next_meters):
            try:
                self.read_coupons()
            except CentreUnreachable:
                pass  # it stays unread on the machine, read again next period; the meters are read on
        if time.monotonic() >= self.next_meters:
            if self.vid_owed:
                self.settle_validation_id()
            self.describe()
            snap = sas_reads.snapshot_meters(self.host)
            self.send("snapshot", meters=snap, max_bet=self.max_bet)
            self.next_meters = time.monotonic() + self.meter_every

    def missed(self, why: str) -> None:
        self.connected = False  # a machine back from silence is asked who it is again
        self.misses += 1
        if self.status != "silent" and self.misses >= SILENT_AFTER:
            self.event("link", f"not answering: {self.misses} polls in a row ({why})", status="silent")
            self.status = "silent"

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                try:
                    self.cycle()
                except (TimeoutError, ValueError, OSError) as e:
                    self.missed(str(e) or type(e).__name__)
            except CentreUnreachable:
                pass  # not the machine's fault: a coupon not sent is read again next cycle (the rest is held)
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
    def __init__(self, link: Link, site: str, lines: dict[str, str], **kw: Any) -> None:
        self.link = link
        self.pollers = {name: CabinetPoller(link, site, name, path, **kw) for name, path in lines.items()}
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
            degraded.LOCAL.clear("waiting", p.name)  # what it held is lost with the process (docs/central.md)


def main(argv: list[str] | None = None) -> int:
    """python -m central.site (--db URL | --nats URL) [--site NAME] CABINET=SAS_PATH ...: poll until
    SIGTERM/SIGINT."""
    import argparse
    import signal

    from central.centre import Direct
    from central.store import open_store

    ap = argparse.ArgumentParser(prog="python -m central.site")
    to = ap.add_mutually_exclusive_group(required=True)
    to.add_argument("--db", help="the store itself: sqlite:PATH or postgresql:CONNINFO")
    to.add_argument("--nats", help="the site's NATS server (central/broker.py): nats://HOST:PORT")
    ap.add_argument("--site", default="site-1")
    ap.add_argument("lines", nargs="+", metavar="CABINET=SAS_PATH")
    args = ap.parse_args(argv)
    lines = dict(line.split("=", 1) for line in args.lines)
    if args.db:
        link: Link = Direct(open_store(args.db))
    else:
        from central.broker import JetStreamLink

        link = JetStreamLink(args.nats, args.site)
    site = SiteController(link, args.site, lines).start()
    signal.signal(signal.SIGTERM, lambda *_: site.stop.set())
    print("site: polling " + " ".join(lines), flush=True)
    said: list[tuple[str, int]] = []
    try:
        while not site.stop.wait(1.0):  # its `waiting` rows, which no page of another process can show
            rows = [d for d in degraded.LOCAL.rows() if d["what"] == "waiting"]
            if [(d["name"], d["since"]) for d in rows] != said:
                said = [(d["name"], d["since"]) for d in rows]
                print("\n".join(f"site: waiting {d['name']} since {d['since']}: {d['detail']}" for d in rows)
                      or "site: nothing held", flush=True)
    except KeyboardInterrupt:
        pass
    site.close()
    link.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
