"""Sites and the centre apart (issue 27, central/broker.py): a site's controller publishing to its
own NATS server (Debian's nats-server, JetStream), the centre's server sourcing the site's stream
over a leaf-node link, the relay applying the messages to the store. A vlt cabinet of real
firmware; the link broken (the centre's server killed) while the site polls on, a coupon printed
meanwhile, then the link back: nothing lost (every sequence of the site's events and snapshots
stored, none missing) and nothing twice (a message published again is stored once)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from central.broker import JetStreamLink, NatsServer, Relay, message_id
from central.crash import CRASH_ENV
from central.site import SiteController
from central.store import SqliteStore
from central.web import serve
from sim.harness import EmulatedCabinet
from tests.host.central_stores import ENGINES, new_store
from tests.host.tcp_cut import CuttableLink

ROOT = Path(__file__).resolve().parents[2]


class Rig:
    def __init__(self, tmp: Path) -> None:
        self.network = CuttableLink()  # between the site and the centre: the address the centre advertises
        self.hub = NatsServer("centre", tmp / "hub", 0, "centre", leaf_port=0,  # ports the servers choose
                              leaf_advertise=f"127.0.0.1:{self.network.port}").start()
        self.network.target = ("127.0.0.1", self.hub.leaf_port)
        self.leaf = NatsServer("site1", tmp / "leaf", 0, "site1", hub=f"nats-leaf://127.0.0.1:{self.network.port}").start()
        self.db = tmp / "central.db"
        self.store = SqliteStore(self.db)
        self.relay = Relay(self.store, self.hub.url, ["site1"]).start()
        self.cab = EmulatedCabinet(tmp / "vlt1", jurisdiction="vlt", sas=True)
        self.cab.boot(system=False)
        self.link = JetStreamLink(self.leaf.url, "site1")
        self.site = SiteController(self.link, "site1", {"vlt1": self.cab.sas_path}, meter_every=0.5).start()
        self.poller = self.site.pollers["vlt1"]
        self.web = serve(self.store, 0)
        self.url = f"http://127.0.0.1:{self.web.server_address[1]}"

    def value(self, sql: str, params: tuple = ()):
        with self.store.transaction(write=False) as tx:
            row = tx.one(sql, params)
        return row[0] if row else None

    def all(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self.store.transaction(write=False) as tx:
            return tx.all(sql, params)

    def until(self, pred, timeout: float = 30.0):
        for _ in range(int(timeout / 0.2)):
            got = pred()
            if got:
                return got
            self.poller.wait_cycles(1)
        raise AssertionError(f"not so after {timeout} s")

    def coupons(self) -> list[dict]:
        return json.loads(self.cab.console.command("coupons json")[-1])

    def degraded(self, what: str) -> list[dict]:
        """What the centre's page says is degraded, of this kind."""
        with urllib.request.urlopen(self.url + "/api/degraded", timeout=10) as f:
            return [d for d in json.loads(f.read()) if d["what"] == what]

    def close(self) -> None:
        try:
            self.web.shutdown()
            self.site.close()
            self.link.close()
            self.relay.close()
        finally:
            self.cab.shutdown()
            self.cab.close_sas()
            self.leaf.stop()
            self.hub.stop()
            self.network.close()


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    r = Rig(tmp_path_factory.mktemp("broker"))
    yield r
    r.close()


def post(url: str, body: bytes | dict) -> dict:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as f:
        return json.loads(f.read())


def refused(url: str, body: bytes | dict) -> tuple[int, str]:
    """The HTTP status and the error of a request the API refuses."""
    with pytest.raises(urllib.error.HTTPError) as e:
        post(url, body)
    return e.value.code, json.loads(e.value.read())["error"]


def cash_out(rig: Rig) -> dict:
    before = {c["s"] for c in rig.coupons()}
    rig.cab.insert_bill(1)
    rig.cab.panel.press("cashout")
    rig.cab.panel.wait_for(lambda s: s.get("credits") == 0)
    return rig.until(lambda: ([c for c in rig.coupons() if c["s"] not in before and c["st"] == "acked"] or [None])[0])


def contiguous(rig: Rig, table: str, where: str = "") -> int:
    """The site's sequences stored for vlt1 run 1..N without a gap; N."""
    with rig.store.transaction(write=False) as tx:
        seqs = [s for (s,) in tx.all(f"SELECT seq FROM {table} WHERE cabinet = 'vlt1' {where} ORDER BY seq")]
    assert seqs == list(range(1, len(seqs) + 1)), seqs
    return len(seqs)


def test_the_validation_id_and_a_coupon_through_the_broker(rig: Rig) -> None:
    vid = rig.until(lambda: rig.value("SELECT validation_id FROM cabinets WHERE name = 'vlt1'"))
    assert json.loads(rig.cab.console.command("validation json")[-1])["vid"] == vid
    rec = cash_out(rig)
    assert rig.until(lambda: rig.value("SELECT cents FROM coupons WHERE number = ?", (rec["n"],))) == rec["c"]


def test_a_broken_link_stops_nothing_at_the_site_and_the_centre_catches_up(rig: Rig) -> None:
    rig.hub.kill()  # the centre's server gone: the site's link to it broken
    rig.poller.wait_cycles(3)
    assert rig.cab.panel.screen.get("link") == "up"  # the cabinet is polled on: no link tilt, it plays
    rec = cash_out(rig)  # printed, sent to the site's stream and read off the machine (acked) meanwhile
    rig.poller.wait_cycles(5)
    assert rig.value("SELECT number FROM coupons WHERE number = ?", (rec["n"],)) is None  # not at the centre yet
    rig.hub.start()
    assert rig.until(lambda: rig.value("SELECT cents FROM coupons WHERE number = ?", (rec["n"],))) == rec["c"]
    last = rig.poller.seq["event"]
    rig.until(lambda: rig.value("SELECT COUNT(*) FROM events WHERE cabinet = 'vlt1' AND origin = 'site' AND seq <= ?",
                                (last,)) == last)
    assert contiguous(rig, "events", "AND origin = 'site'") >= last
    assert contiguous(rig, "meter_snapshots") >= 1


def test_a_message_published_again_is_stored_once(rig: Rig) -> None:
    """A site controller that cannot know whether its last message got there (killed before the
    PubAck) sends it again: the site's stream keeps one."""
    msg = {"kind": "event", "site": "site1", "cabinet": "vlt9", "at": 1, "seq": 1, "event": "exception",
           "detail": "sent twice", "code": 0}  # a cabinet of its own: vlt1's sequences stay whole
    assert message_id(msg) == "site1.vlt9.event.1"
    assert rig.link.send(msg) is True
    assert rig.link.send(dict(msg, detail="sent twice, changed")) is False  # its id: JetStream drops it
    rig.until(lambda: rig.value("SELECT detail FROM events WHERE cabinet = 'vlt9'"))
    assert rig.value("SELECT detail FROM events WHERE cabinet = 'vlt9'") == "sent twice"


def test_the_page_says_a_sites_link_is_broken_since_when_until_it_is_mended(rig: Rig) -> None:
    """The network between the site's server and the centre's cut, both servers up: the centre's
    page says the site's link is broken, since when, its messages waiting in its stream; mended,
    it says nothing more and the centre catches up."""
    cut_at = int(time.time())
    rig.network.cut()
    [link] = rig.until(lambda: rig.degraded("link"))
    assert link["name"] == "site1" and cut_at <= link["since"] <= int(time.time())
    assert "messages wait in its stream SITE_site1" in link["detail"], link
    with urllib.request.urlopen(rig.url + "/", timeout=10) as f:
        assert b'<li data-what="link">link site1 since ' in f.read()
    waiting = rig.until(lambda: rig.poller.seq["snapshot"] > (rig.value("SELECT MAX(seq) FROM meter_snapshots "
                                                                         "WHERE cabinet = 'vlt1'") or 0) and
                        rig.poller.seq["snapshot"])
    rig.network.mend()
    rig.until(lambda: not rig.degraded("link"))
    rig.until(lambda: rig.value("SELECT COUNT(*) FROM meter_snapshots WHERE cabinet = 'vlt1' AND seq = ?", (waiting,)))


def test_a_message_the_store_refuses_stops_the_relay_there_and_the_page_says_so(rig: Rig) -> None:
    """The store refuses one message (a trigger: as a constraint of a newer schema would): the
    relay stops on it, unacked, the page says so since when and why; what comes after it waits
    behind it (nothing out of order); the store takes it again: the relay goes on, nothing lost."""
    with rig.store.transaction() as tx:
        tx.run("CREATE TRIGGER refuse_vlt8 BEFORE INSERT ON events WHEN NEW.cabinet = 'vlt8' "
               "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
    sent_at = int(time.time())
    rig.link.send({"kind": "event", "site": "site1", "cabinet": "vlt8", "at": sent_at, "seq": 1, "event": "exception",
                   "detail": "refused once", "code": 0})
    before = rig.poller.seq["snapshot"]  # the snapshots sent from now on are behind it in the site's stream
    [stuck] = rig.until(lambda: rig.degraded("relay"))
    assert stuck["name"] == "site1" and sent_at <= stuck["since"] <= int(time.time())
    assert "(jeton.site1.vlt8.event): IntegrityError: refused by the test" in stuck["detail"], stuck
    behind = rig.until(lambda: rig.poller.seq["snapshot"] > before and rig.poller.seq["snapshot"])
    rig.poller.wait_cycles(3)
    assert rig.value("SELECT COUNT(*) FROM meter_snapshots WHERE cabinet = 'vlt1' AND seq = ?", (behind,)) == 0
    with rig.store.transaction() as tx:
        tx.run("DROP TRIGGER refuse_vlt8")
    rig.until(lambda: rig.value("SELECT COUNT(*) FROM meter_snapshots WHERE cabinet = 'vlt1' AND seq = ?", (behind,)))
    assert rig.value("SELECT detail FROM events WHERE cabinet = 'vlt8'") == "refused once"
    assert rig.degraded("relay") == []
    # kept for the record as applied after all: no longer the one to set aside
    [(seq, resolved)] = rig.all("SELECT seq, resolved FROM unapplied WHERE subject = 'jeton.site1.vlt8.event'")
    assert resolved == "applied"
    with pytest.raises(urllib.error.HTTPError) as e:
        post(rig.url + "/api/relay/site1/set-aside", {"message": seq, "by": "ann"})
    assert e.value.code == 409 and "is not the one blocking: applied at" in json.loads(e.value.read())["error"]


def test_a_relay_killed_between_its_commit_and_its_ack_loses_nothing(rig: Rig) -> None:
    """The relay process (python -m central.broker) killed after a message is committed and before
    it is acknowledged: the message comes again and is applied as nothing new; the next relay goes on."""
    rig.relay.close()
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{CRASH_ENV: "relay-applied"})
    cmd = [sys.executable, "-m", "central.broker", "--db", f"sqlite:{rig.db}", "--nats", rig.hub.url, "site1"]
    first = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    assert first.wait(60) == -signal.SIGKILL  # at the first message it applied (a snapshot comes every 0.5 s)
    env.pop(CRASH_ENV)
    rig.relay = Relay(rig.store, rig.hub.url, ["site1"]).start()  # the next one (closed by the rig)
    last = rig.poller.seq["snapshot"]
    # what the killed relay had taken and not acked comes again after ACK_WAIT_S: every sequence up to
    # the last sent, none missing
    rig.until(lambda: rig.value("SELECT COUNT(*) FROM meter_snapshots WHERE cabinet = 'vlt1' AND seq <= ?",
                                (last,)) == last)
    assert contiguous(rig, "meter_snapshots") >= last
    assert contiguous(rig, "events", "AND origin = 'site'") >= 1


def test_a_message_the_relay_can_never_apply_is_kept_and_an_operator_sets_it_aside(rig: Rig) -> None:
    """A malformed message (a kind no centre knows: a site's bug) can never be applied: the relay
    stops on it, keeps it with the reason (table unapplied) and says so on the page, what comes
    after waits; the API refuses a malformed set-aside (400), an unknown site or message (404);
    the operator sets it aside: the relay acks it unapplied and goes on, applying each message
    behind it once; the set-aside is listed with who and when and the message itself, and cannot
    be done twice (409)."""
    bad = {"kind": "bogus", "site": "site1", "cabinet": "vlt7", "at": int(time.time()), "seq": 1}
    rig.link.send(bad)
    before = rig.poller.seq["snapshot"]
    [stuck] = rig.until(lambda: rig.degraded("relay"))
    [(seq, body, reason)] = rig.all("SELECT seq, message, reason FROM unapplied WHERE site = 'site1' "
                                    "AND resolved IS NULL")
    assert json.loads(body) == bad and reason == "ValueError: no such message kind: 'bogus'"
    assert f"stopped on message {seq} (jeton.site1.vlt7.bogus): {reason}" in stuck["detail"], stuck
    assert f"python -m central.degraded set-aside site1 {seq} --by NAME" in stuck["detail"]
    behind = rig.until(lambda: rig.poller.seq["snapshot"] > before and rig.poller.seq["snapshot"])
    rig.poller.wait_cycles(3)
    assert rig.value("SELECT COUNT(*) FROM meter_snapshots WHERE cabinet = 'vlt1' AND seq = ?", (behind,)) == 0
    api = rig.url + "/api/relay/site1/set-aside"
    for malformed in (b"not json", {"message": seq}, {"by": "ann"}, {"message": str(seq), "by": "ann"},
                      {"message": True, "by": "ann"}, {"message": seq, "by": " "}, [seq, "ann"]):
        status, error = refused(api, malformed)
        assert status == 400 and error.startswith("bad request"), (malformed, status, error)
    assert refused(rig.url + "/api/relay/site9/set-aside", {"message": seq, "by": "ann"}) == (404, "no site site9")
    assert refused(api, {"message": seq + 1000, "by": "ann"}) == \
        (404, f"site site1 has no message {seq + 1000} the relay could not apply")
    assert rig.value("SELECT resolved FROM unapplied WHERE seq = ?", (seq,)) is None  # still blocking
    done = post(api, {"message": seq, "by": "ann"})
    assert done["site"] == "site1" and done["message"] == seq and done["set_aside_by"] == "ann"
    rig.until(lambda: rig.value("SELECT COUNT(*) FROM meter_snapshots WHERE cabinet = 'vlt1' AND seq = ?", (behind,)))
    rig.until(lambda: not rig.degraded("relay"))
    assert contiguous(rig, "meter_snapshots") >= behind  # each one behind it applied, once, in order
    assert contiguous(rig, "events", "AND origin = 'site'") >= 1
    assert rig.value("SELECT COUNT(*) FROM cabinets WHERE name = 'vlt7'") == 0  # never applied
    with urllib.request.urlopen(rig.url + "/api/set-aside", timeout=10) as f:
        aside = [a for a in json.loads(f.read()) if a["message"] == seq]
    assert aside == [{"site": "site1", "message": seq, "subject": "jeton.site1.vlt7.bogus", "body": body,
                      "reason": reason, "since": aside[0]["since"], "set_aside_at": done["set_aside_at"],
                      "set_aside_by": "ann"}]
    status, error = refused(api, {"message": seq, "by": "bob"})
    assert status == 409 and f"is not the one blocking: set aside by ann at {done['set_aside_at']}" in error, error


@pytest.mark.parametrize("engine", ENGINES)
def test_an_operator_sets_a_message_aside_from_the_command_line_on_each_engine(tmp_path: Path, engine: str) -> None:
    """python -m central.degraded on SQLite and on PostgreSQL: a message that names its cabinet
    but lacks its event (malformed) stops a relay of its own; `show` says why and shows it,
    `set-aside` refuses an unknown message, sets this one aside, and refuses it twice; the
    messages behind it are applied once each, the set-aside one never; `aside` lists it."""

    hub = NatsServer("centre", tmp_path / "hub", 0, "centre", leaf_port=0).start()
    leaf = NatsServer("site2", tmp_path / "leaf", 0, "site2", hub=hub.leaf_url).start()
    store, url = new_store(engine, tmp_path)
    relay = Relay(store, hub.url, ["site2"]).start()
    link = JetStreamLink(leaf.url, "site2")
    wait = threading.Event()

    def until(pred):
        for _ in range(300):
            if got := pred():
                return got
            wait.wait(0.1)
        raise AssertionError(f"{engine}: not so after 30 s")

    def stored() -> list[tuple]:
        with store.transaction(write=False) as tx:
            return tx.all("SELECT seq, detail FROM events WHERE cabinet = 'vlt3' ORDER BY seq")

    def blocking() -> list[tuple]:
        with store.transaction(write=False) as tx:
            return tx.all("SELECT seq FROM unapplied WHERE site = 'site2' AND resolved IS NULL")

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "central.degraded", "--db", url, *args], cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
                              timeout=60)
    try:
        event = {"kind": "event", "site": "site2", "cabinet": "vlt3", "event": "exception", "code": 0}
        link.send(dict(event, at=1, seq=1, detail="first"))
        link.send({"kind": "event", "site": "site2", "cabinet": "vlt3", "at": 2, "seq": 2})  # no event, detail
        for n in (3, 4):
            link.send(dict(event, at=n, seq=n, detail=f"behind {n}"))
        [(seq,)] = until(lambda: blocking())
        shown = cli("show")
        assert shown.returncode == 0, shown.stderr
        assert "relay site2 since " in shown.stdout and "KeyError: 'event'" in shown.stdout, shown.stdout
        assert f"blocking: site site2 message {seq} (jeton.site2.vlt3.event)" in shown.stdout, shown.stdout
        assert stored() == [(1, "first")]  # what comes after it waits
        unknown = cli("set-aside", "site2", str(seq + 100), "--by", "ann")
        assert unknown.returncode == 1 and "no message" in unknown.stderr, unknown
        done = cli("set-aside", "site2", str(seq), "--by", "ann")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["set_aside_by"] == "ann"
        until(lambda: len(stored()) == 3)
        assert stored() == [(1, "first"), (3, "behind 3"), (4, "behind 4")]  # each once; 2 never
        [aside] = [json.loads(line) for line in cli("aside").stdout.splitlines()]
        assert (aside["site"], aside["message"], aside["set_aside_by"]) == ("site2", seq, "ann")
        assert json.loads(aside["body"])["seq"] == 2 and aside["reason"] == "KeyError: 'event'"
        again = cli("set-aside", "site2", str(seq), "--by", "bob")
        assert again.returncode == 1 and "not the one blocking: set aside by ann" in again.stderr, again
    finally:
        link.close()
        relay.close()
        store.close()
        leaf.stop()
        hub.stop()
