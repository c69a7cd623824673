"""Sites and the centre apart, through NATS JetStream (Debian's `nats-server`, the `nats-py` client):
a site's controller publishes its messages (`central/ingest.py`) to the NATS server on its own
host, which keeps them in the site's stream; the centre's stream sources every site's stream over
the leaf-node connection between the two servers, and the centre's relay applies each message to
the store, then acknowledges it.

    site host                                     centre host
    site controller --publish, PubAck--> site's nats-server (leaf, JetStream domain = the site)
                                          | stream SITE_<site>: file storage, de-duplicated by message id
                                          |   (sourced over the leaf-node link, resumed after a break)
                                          v
                                   centre's nats-server (hub, domain "centre"): stream CENTRE
                                          | durable pull consumer "ingest", explicit acks
                                          v
                                   Relay: apply in one transaction, commit, then ack --> the store

- **Nothing lost**: the controller goes on to the next step (4D 00, the next poll) only once the site's
  server has stored the message (its PubAck), which it does in its stream's file before answering;
  a broken network stops the sourcing, not the site, and the sourcing resumes where it stopped.
- **Nothing duplicated**: each message carries an id (`message_id`: the site, the cabinet, the kind
  and the site's sequence, or a coupon's number), so a message published again inside the stream's
  `DUPLICATE_WINDOW_S` is stored once (JetStream's de-duplication); and whatever is delivered again
  (a relay killed between its commit and its ack) is applied as nothing new (`ingest.apply`).
- **Questions** (which validation id, which order): a request on `ASK_SUBJECT`, which the relay
  answers from the store; with the link broken there is no answer (`CentreUnreachable`), and the
  site controller asks again later, polling on meanwhile.

Why NATS JetStream rather than Mosquitto: JetStream stores a message in its stream's file before its
PubAck, so a broker process killed (not the host) loses nothing it acknowledged, and it de-duplicates
by message id; Mosquitto writes its persistence file only every `autosave_interval` and at a clean
shutdown, so a killed broker loses the QoS 1 messages it acknowledged since, and MQTT QoS 1 has no
de-duplication (QoS 2 holds only per client session). `make broker-tools` installs `nats-server`."""
from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable

from central import centre, degraded, ingest
from central.crash import point as crash_point
from central.degraded import RETRY_S
from central.site import CentreUnreachable
from central.store import Store, cabinet

PACKAGES = ("nats-server",)
ASK_SUBJECT = "jeton.centre.ask"
CENTRE_STREAM = "CENTRE"
CENTRE_DOMAIN = "centre"
DUPLICATE_WINDOW_S = 3600  # a site controller restarted within the hour republishes nothing twice
SEQUENCED = ("event", "snapshot")
SEND_TIMEOUT_S = 10.0
ACK_WAIT_S = 5  # a message a relay took and did not ack (it died) is delivered again after this
ASK_TIMEOUT_S = 2.0
WATCH_S = 1.0  # each site's link checked this often (central/degraded.py)
LINK_TIMEOUT_S = 2.0  # a site's stream not described in this long: its link is broken (a loaded host answers in less)
SITE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # a subject token, a stream name and a JetStream domain


def site_stream(site: str) -> str:
    return f"SITE_{site}"


def subject(msg: dict[str, Any]) -> str:
    return f"jeton.{msg['site']}.{msg['cabinet']}.{msg['kind']}"


def message_id(msg: dict[str, Any]) -> str:
    """The id JetStream de-duplicates by: the same message sent again has the same one."""
    if msg["kind"] in SEQUENCED:
        return f"{msg['site']}.{msg['cabinet']}.{msg['kind']}.{msg['seq']}"
    if msg["kind"] == "coupon":
        return f"{msg['site']}.{msg['cabinet']}.coupon.{msg['number']}"
    return str(uuid.uuid4())  # cabinet, connected: applying one twice changes nothing


def check_site(site: str) -> str:
    if not SITE_NAME.match(site):
        raise ValueError(f"a site's name is 1-32 letters, digits, '-' or '_': {site!r}")
    return site


class NatsServer:
    """A `nats-server` process with JetStream in `store_dir`: the centre's hub (`leaf_port` given: it
    takes leaf-node connections) or a site's leaf (`hub` set: the hub's leaf-node URL). A port of 0
    is one the server chooses (no race with another process for a free port); the ports it bound
    are read from its log, and a restart asks for the same ones again (a leaf reconnects to them)."""

    LISTENING = re.compile(r"Listening for (client|leafnode) connections on [\d.]+:(\d+)")

    def __init__(self, name: str, store_dir: Path, port: int = 0, domain: str = CENTRE_DOMAIN,
                 leaf_port: int | None = None, hub: str | None = None, leaf_advertise: str | None = None) -> None:
        """leaf_advertise: HOST:PORT the sites reach the hub's leaf-node port at (a firewall's, a
        NAT's), which the hub's INFO hands a site to reconnect to instead of its own address."""
        self.exe = shutil.which("nats-server")
        if self.exe is None:
            raise RuntimeError("no nats-server: run `make broker-tools` (apt-get install -y nats-server)")
        self.name, self.dir, self.port, self.domain = name, Path(store_dir), port, domain
        self.leaf_port, self.hub, self.leaf_advertise = leaf_port, hub, leaf_advertise
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    @property
    def leaf_url(self) -> str:
        return f"nats-leaf://127.0.0.1:{self.leaf_port}"

    def config(self) -> str:
        lines = [f"server_name: {self.name}", "host: 127.0.0.1", f"port: {self.port or -1}",
                 f'jetstream {{ store_dir: "{self.dir / "js"}", domain: {self.domain} }}']
        if self.leaf_port is not None:
            advertise = f', advertise: "{self.leaf_advertise}"' if self.leaf_advertise else ""
            lines.append(f"leafnodes {{ host: 127.0.0.1, port: {self.leaf_port or -1}{advertise} }}")
        if self.hub is not None:
            lines.append(f'leafnodes {{ remotes: [ {{ url: "{self.hub}" }} ], reconnect: 1 }}')
        return "\n".join(lines) + "\n"

    def start(self, timeout: float = 15.0) -> "NatsServer":
        self.dir.mkdir(parents=True, exist_ok=True)
        conf = self.dir / "nats.conf"
        conf.write_text(self.config())
        log_path = self.dir / "server.log"
        start = log_path.stat().st_size if log_path.exists() else 0
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen([self.exe, "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT)
        want = {"client"} | ({"leafnode"} if self.leaf_port is not None else set())
        bound: dict[str, int] = {}
        wait = threading.Event()
        for _ in range(int(timeout / 0.05)):
            with open(log_path, "rb") as f:
                f.seek(start)
                text = f.read().decode("utf-8", "replace")
            bound = {kind: int(port) for kind, port in self.LISTENING.findall(text)}
            if want <= bound.keys() and "Server is ready" in text:
                self.port = bound["client"]
                if self.leaf_port is not None:
                    self.leaf_port = bound["leafnode"]
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"nats-server {self.name} exited: {text[-2000:]}")
            wait.wait(0.05)
        self.kill()
        raise RuntimeError(f"nats-server {self.name} not ready after {timeout} s")

    def kill(self) -> None:
        """SIGKILL: a crash, or the network to this server cut."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


async def ensure_stream(js: Any, config: Any) -> None:
    """Make the stream, or bring an existing one to this configuration (a restarted process: the
    server's copy carries defaults filled in, so adding it again is refused as a different one)."""
    from nats.js.errors import NotFoundError

    try:
        await js.stream_info(config.name)
    except NotFoundError:
        await js.add_stream(config)
        return
    await js.update_stream(config)


async def _quiet(e: Exception) -> None:
    """nats-py's errors while it reconnects (a broken link, the server restarting): expected, and
    the client goes on reconnecting; nats-py's default prints each one with its traceback."""


class _Loop:
    """An asyncio loop on a thread of its own: the pollers' threads call into nats-py through it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="nats", daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        async def cancel_the_rest() -> None:  # nats-py's reconnect and read tasks
            me = asyncio.current_task()
            rest = [t for t in asyncio.all_tasks() if t is not me]
            for t in rest:
                t.cancel()
            await asyncio.gather(*rest, return_exceptions=True)

        try:
            self.run(cancel_the_rest(), 10)
        except Exception:  # a loop already stopped, or a task that would not end: stopped below all the same
            pass
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


class JetStreamLink:
    """A site controller's link (central/site.py Link) through the site's own NATS server."""

    def __init__(self, url: str, site: str) -> None:
        import nats
        from nats.js.api import StorageType, StreamConfig

        self.site = check_site(site)
        self.stream = site_stream(site)
        self._loop = _Loop()

        async def connect() -> Any:
            nc = await nats.connect(url, max_reconnect_attempts=-1, reconnect_time_wait=0.5, error_cb=_quiet)
            js = nc.jetstream()
            await ensure_stream(js, StreamConfig(name=self.stream, subjects=[f"jeton.{site}.>"],
                                                 storage=StorageType.FILE, duplicate_window=DUPLICATE_WINDOW_S))
            return nc, js

        self.nc, self.js = self._loop.run(connect(), 30)

    def send(self, msg: dict[str, Any]) -> bool:
        """Returns once the site's server has stored the message (its PubAck): False when it had it
        already (the same message id inside DUPLICATE_WINDOW_S), and stored nothing more."""
        data = json.dumps(msg, separators=(",", ":")).encode()
        ack = self._loop.run(self.js.publish(subject(msg), data, timeout=SEND_TIMEOUT_S,
                                             headers={"Nats-Msg-Id": message_id(msg)}), SEND_TIMEOUT_S + 1)
        return not ack.duplicate

    def ask(self, question: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = self._loop.run(self.nc.request(ASK_SUBJECT, json.dumps(question).encode(),
                                                   timeout=ASK_TIMEOUT_S), ASK_TIMEOUT_S + 1)
        except Exception as e:  # nats' timeouts and no-responders, a closed connection
            raise CentreUnreachable(f"no answer from the centre: {type(e).__name__}") from e
        answer = json.loads(reply.data)
        if "error" in answer:
            raise ValueError(f"the centre refused: {answer['error']}")
        return answer

    def last_seqs(self, site: str, cabinet: str) -> dict[str, int]:
        """The last sequence of each kind in the site's stream, or the centre's if higher (a site
        whose stream was lost goes on after what the centre has)."""
        from nats.js.errors import NotFoundError

        out = {}
        for kind in SEQUENCED:
            try:
                m = self._loop.run(self.js.get_last_msg(self.stream, f"jeton.{site}.{cabinet}.{kind}"), 10)
                out[kind] = json.loads(m.data)["seq"]
            except NotFoundError:
                out[kind] = 0
        try:
            known = self.ask({"ask": "last_seqs", "site": site, "cabinet": cabinet})
            out = {k: max(v, known.get(k, 0)) for k, v in out.items()}
        except CentreUnreachable:
            pass  # the site's own stream is the record while the centre cannot be asked
        return out

    def close(self) -> None:
        try:
            self._loop.run(self.nc.close(), 10)
        except Exception:  # a connection already lost: nothing of ours is pending on it
            pass
        self._loop.close()


class Relay:
    """The centre's side: the stream CENTRE sourcing each site's stream, a durable consumer applying
    each message to the store (commit, then ack), and the answers to the sites' questions."""

    def __init__(self, store: Store, url: str, sites: list[str], clock: Callable[[], float] = time.time,
                 batch: int = 100) -> None:
        self.store, self.url, self.sites, self.clock, self.batch = store, url, [check_site(s) for s in sites], clock, batch
        self.applied = 0
        self.changed = threading.Condition()
        self._stop = threading.Event()
        self._loop = _Loop()
        self._task: Any = None
        self._watcher: Any = None

    async def _setup(self) -> None:
        import nats
        from nats.js.api import AckPolicy, ConsumerConfig, ExternalStream, StorageType, StreamConfig, StreamSource

        self.nc = await nats.connect(self.url, max_reconnect_attempts=-1, reconnect_time_wait=0.5, error_cb=_quiet)
        self.js = self.nc.jetstream()
        sources = [StreamSource(name=site_stream(s), external=ExternalStream(api=f"$JS.{s}.API")) for s in self.sites]
        await ensure_stream(self.js, StreamConfig(name=CENTRE_STREAM, storage=StorageType.FILE, sources=sources))
        self.sub = await self.js.pull_subscribe("", durable="ingest", stream=CENTRE_STREAM,
                                                config=ConsumerConfig(ack_policy=AckPolicy.EXPLICIT,
                                                                      ack_wait=ACK_WAIT_S))
        await self.nc.subscribe(ASK_SUBJECT, cb=self._answer)

    async def _answer(self, msg: Any) -> None:
        try:
            q = json.loads(msg.data)
            if q.get("ask") == "last_seqs":
                a: dict[str, Any] = centre.last_seqs(self.store, q["cabinet"])
            else:
                a = centre.answer(self.store, q, int(self.clock()))
        except (ValueError, KeyError) as e:
            a = {"error": str(e)}
        await msg.respond(json.dumps(a).encode())

    async def _consume(self) -> None:
        import nats.errors

        while not self._stop.is_set():
            try:
                msgs = await self.sub.fetch(self.batch, timeout=1)
            except (nats.errors.TimeoutError, asyncio.TimeoutError):
                continue
            except Exception:  # the connection to the hub down: nats-py reconnects
                await asyncio.sleep(0.5)
                continue
            for i, m in enumerate(msgs):
                if self._stop.is_set():  # closing: the rest of the batch goes back at once, not after ACK_WAIT_S
                    for rest in msgs[i:]:
                        try:
                            await rest.nak()
                        except Exception:  # no link: they come again after ACK_WAIT_S
                            break
                    return
                if not await self._apply(m):  # closing while stuck on it: it and the rest go back
                    for rest in msgs[i:]:
                        try:
                            await rest.nak()
                        except Exception:
                            break
                    return
                crash_point("relay-applied")
                try:
                    await m.ack()
                except Exception:  # the link to the hub broken under the ack: it comes again, applied as nothing new
                    break
                with self.changed:
                    self.applied += 1
                    self.changed.notify_all()

    async def _apply(self, m: Any) -> bool:
        """Apply one message, or skip it if an operator set it aside (central/degraded.py), in one
        transaction with the check, so that a message is applied or set aside, never both. One
        that cannot be applied (the store out of reach: its health says so; a message the store
        refuses, a malformed one, a bug: kept in `unapplied` with the reason, a `relay` row) stops
        the relay there, unacked (its ack wait renewed), tried again every RETRY_S until it is
        applied or set aside. False: closing meanwhile."""
        site = m.subject.split(".")[1]  # jeton.<site>.<cabinet>.<kind>
        seq = m.metadata.sequence.stream
        try:
            name = json.loads(m.data)["cabinet"]
        except Exception:  # malformed: it names no cabinet
            name = None
        # its cabinet's lock and the set-aside's; a malformed one names no cabinet: its transaction goes alone
        keys = [cabinet(name), degraded.relay_key(site)] if isinstance(name, str) else None
        while True:
            try:
                with self.store.transaction(keys=keys) as tx:
                    if degraded.resolution(tx, site, seq) != degraded.SET_ASIDE:
                        ingest.apply(tx, json.loads(m.data))
                        degraded.applied(tx, site, seq, int(self.clock()))
                    else:
                        degraded.clear(tx, "relay", site)
                return True
            except self.store.UNREACHABLE:
                pass  # the store's health records it (central/store.py)
            except Exception as e:  # whatever it is, the message is not lost: kept unacked, said on the page
                self._stuck(site, seq, m, f"{type(e).__name__}: {e}")
            if self._stop.is_set():
                return False
            try:
                await m.in_progress()
            except Exception:  # no link to the hub: it is delivered again after ACK_WAIT_S, applied once
                pass
            await asyncio.sleep(RETRY_S)

    def _stuck(self, site: str, seq: int, m: Any, reason: str) -> None:
        """Keep the message the relay cannot apply, with the reason (tried again if the store is out of reach)."""
        try:
            with self.store.transaction(keys=[degraded.relay_key(site)]) as tx:
                degraded.stuck(tx, site, seq, m.subject, m.data.decode("utf-8", "replace"), reason,
                               int(self.clock()))
        except self.store.UNREACHABLE:
            pass

    def _note(self, what: str, site: str, detail: str | None) -> bool:
        """Mark (detail) or clear (None) a degraded row; False: the store out of reach (tried later)."""
        try:
            with self.store.transaction(keys=[("degraded", f"{what}:{site}")]) as tx:
                if detail is None:
                    degraded.clear(tx, what, site)
                else:
                    degraded.mark(tx, what, site, int(self.clock()), detail)
            return True
        except self.store.UNREACHABLE:
            return False

    async def _watch(self) -> None:
        """Every WATCH_S, each site's stream asked for over the leaf-node link (its JetStream
        domain): no answer, the link is broken and the site's messages wait in its stream."""
        down: dict[str, bool] = {}
        last: dict[str, int] = {}
        while not self._stop.is_set():
            for site in self.sites:
                if not self.nc.is_connected:
                    break  # the centre's own server out of reach: nothing can be told of the links
                try:
                    info = await self.nc.jetstream(domain=site, timeout=LINK_TIMEOUT_S).stream_info(site_stream(site))
                    last[site] = info.state.last_seq
                    broken = False
                except Exception:  # a timeout, no responders: the site's server not reached
                    broken = True
                if down.get(site) != broken:
                    detail = (f"the site's NATS server does not answer over the leaf-node link: its messages wait in "
                              f"its stream {site_stream(site)} (sequence {last.get(site, 0)} at the last contact)")
                    if self._note("link", site, detail if broken else None):
                        down[site] = broken
            await asyncio.sleep(WATCH_S)

    def start(self) -> "Relay":
        self._loop.run(self._setup(), 30)
        for site in self.sites:  # a message a relay before stopped on is tried again: said again if it still fails
            self._note("relay", site, None)
        self._task = asyncio.run_coroutine_threadsafe(self._consume(), self._loop.loop)
        self._watcher = asyncio.run_coroutine_threadsafe(self._watch(), self._loop.loop)
        return self

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        for task in (self._task, self._watcher):
            if task is not None:
                try:
                    task.result(10)
                except Exception:
                    pass
        try:
            self._loop.run(self.nc.close(), 10)
        except Exception:  # a connection already lost: every message applied was acked or is redelivered
            pass
        self._loop.close()


def main(argv: list[str] | None = None) -> int:
    """python -m central.broker --db URL --nats URL SITE ...: the centre's relay, until SIGTERM/SIGINT."""
    import argparse
    import signal

    from central.store import open_store

    ap = argparse.ArgumentParser(prog="python -m central.broker")
    ap.add_argument("--db", required=True, help="the store: sqlite:PATH or postgresql:CONNINFO")
    ap.add_argument("--nats", required=True, help="the centre's NATS server: nats://HOST:PORT")
    ap.add_argument("sites", nargs="+")
    args = ap.parse_args(argv)
    relay = Relay(open_store(args.db), args.nats, args.sites).start()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    print("relay: applying " + " ".join(args.sites), flush=True)
    try:
        done.wait()
    except KeyboardInterrupt:
        pass
    relay.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
