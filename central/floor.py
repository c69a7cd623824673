"""`make floor`: a site of emulated cabinets (the real firmware image on the emulated board, each on
its own SAS line), the site controller polling them and the central service's web page, on one
machine, until interrupted (Ctrl-C).

    python -m central.floor --state /tmp/floor --port 38080 [--cabinets 8] [--db URL] [--broker]

The cabinets' state lives under STATE/<name>; the store is STATE/central.db unless --db names one
(sqlite:PATH or postgresql:CONNINFO). With --broker the site reaches the centre through NATS
JetStream (central/broker.py): a site's server and the centre's, each with its state under
STATE/nats-*, and the centre's relay."""
from __future__ import annotations

import argparse
import json
import shutil
import signal
import threading
from pathlib import Path

from central.centre import Direct
from central.site import Link, SiteController
from central.store import open_store
from central.web import serve
from sim.harness import EmulatedCabinet

# The floor's cabinets in order: (game, jurisdiction, credit value in cents); mixed families (reels,
# keno, video poker) and both profiles, as issue 27 asks. A vlt offers only a game inside its limits
# ($2.50 a bet, $1,000 a prize, 25 cents a credit: firmware/jurisdiction.py), else it boots into its
# `limits` tilt: no shipped keno model fits them (a prize above $1,000 at any credit value that keeps
# the bet at $2.50), and tricolore-92's top prize fits at 10 cents, not 25.
FLOOR = (
    ("sept-royal-87", "vlt", 25), ("keno-etoile-90", "casino", 25), ("jacks-98", "vlt", 25),
    ("trefle-90", "casino", 25), ("tricolore-92", "vlt", 10), ("aurore-88", "casino", 25),
    ("deuces-wild-98", "vlt", 25), ("deuces-wild-99", "casino", 25),
)


def paytable_id(game: str) -> str:
    """What SAS 1F names a game's paytable (firmware/sas/polls.py machine_info): its id's first six
    letters and digits, upper case."""
    return game.upper().replace("-", "")[:6]


def cabinet_name(i: int) -> str:
    return f"cab{i + 1:02d}"


def boot_cabinets(state: Path, n: int, floor: tuple[tuple[str, str, int], ...] = FLOOR) -> dict[str, EmulatedCabinet]:
    """n cabinets (FLOOR's, round again past its end), each with its own machine id and credit value,
    booted with its SAS line; a vlt's validation id is left for the central system to set (SAS 4C)."""
    cabs: dict[str, EmulatedCabinet] = {}
    try:
        for i in range(n):
            game, juris, denom = floor[i % len(floor)]
            name = cabinet_name(i)
            d = state / name
            d.mkdir(parents=True, exist_ok=True)
            settings = d / "settings.json"
            if not settings.exists():
                settings.write_text(json.dumps({"MACHINE_ID": f"JTN-FLOOR-{i + 1:04d}", "DENOM_CENTS": denom}))
            cab = EmulatedCabinet(d, extra_args=["--games", game], jurisdiction=juris, sas=True)
            cabs[name] = cab
            cab.boot(system=False)
    except BaseException:
        shutdown(cabs)
        raise
    return cabs


def shutdown(cabs: dict[str, EmulatedCabinet]) -> None:
    for cab in cabs.values():
        cab.shutdown()
        cab.close_sas()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m central.floor", description=__doc__.splitlines()[0])
    ap.add_argument("--state", required=True, help="the floor's state directory (cabinets and store)")
    ap.add_argument("--port", type=int, default=38080, help="the web page's port (default 38080)")
    ap.add_argument("--cabinets", type=int, default=len(FLOOR))
    ap.add_argument("--db", help="the store: sqlite:PATH or postgresql:CONNINFO (default sqlite:STATE/central.db)")
    ap.add_argument("--broker", action="store_true", help="the site and the centre apart, through NATS JetStream")
    ap.add_argument("--fresh", action="store_true", help="remove the state directory first")
    args = ap.parse_args(argv)
    state = Path(args.state)
    if args.fresh and state.exists():
        shutil.rmtree(state)
    state.mkdir(parents=True, exist_ok=True)
    store = open_store(args.db or f"sqlite:{state / 'central.db'}")
    print(f"floor: booting {args.cabinets} cabinets under {state}", flush=True)
    cabs = boot_cabinets(state, args.cabinets)
    for name, cab in cabs.items():
        print(f"  {name}: {cab.firmware.ready.get('jurisdiction')} sas={cab.sas_path} "
              f"panel={cab.ports['panel']} console={cab.ports['console']}", flush=True)
    servers: list = []
    relay = None
    if args.broker:
        from central.broker import JetStreamLink, NatsServer, Relay

        hub = NatsServer("centre", state / "nats-centre", 0, "centre", leaf_port=0).start()
        servers = [hub, NatsServer("site-1", state / "nats-site-1", 0, "site-1", hub=hub.leaf_url).start()]
        relay = Relay(store, servers[0].url, ["site-1"]).start()
        link: Link = JetStreamLink(servers[1].url, "site-1")
        print(f"floor: NATS centre {servers[0].url}, site {servers[1].url}", flush=True)
    else:
        link = Direct(store)
    # the approved software: the image the floor's cabinets were started from, checked by SAS 21
    image = Path(next(iter(cabs.values())).firmware.command()[0]).read_bytes()
    site = SiteController(link, "site-1", {name: cab.sas_path for name, cab in cabs.items()},
                          approved_image=image).start()
    server = serve(store, args.port)
    print(f"floor: http://127.0.0.1:{server.server_address[1]}/ (cashier /cashier, register /register); "
          "Ctrl-C stops", flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        done.wait()
    except KeyboardInterrupt:
        pass
    server.shutdown()
    site.close()
    link.close()
    if relay is not None:
        relay.close()
    for s in reversed(servers):
        s.stop()
    shutdown(cabs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
