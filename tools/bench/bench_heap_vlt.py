"""Heap under the vlt profile: the smallest fixed heap in which the frozen firmware image carries a
VLT's whole session with its SAS line open and polled (bench_heap's session under `--jurisdiction
vlt`: notes through the bill validator's escrow as well as tokens, the cash-out by coupon waited for
until the printer issues it, the floor's system polling from boot to cash-out), for every shipped
game the vlt profile offers, each flagged over the 112K requirement and the 96K goal; then the heap
in use after boot by subsystem (heap_census.py).

    python -m tools.bench.bench_heap_vlt [--games ID,...] [--jobs 4] [--max K] [--no-census]

A VLT does not play without its central system's link (firmware/jurisdiction.py link_required;
L-6, r. 3, s. 2), so its sessions are measured with the line only, each figure bisected as
bench_heap's are; the casino cabinet's, with and without the line and in each way of loading the
code, are bench_heap's. The games: those the vlt profile offers at the configuration's credit
value (firmware/config.py DENOM_CENTS), by the firmware's own boot check (vlt_games).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace

from firmware import config
from firmware.startup import load_games
from sim.harness import ROOT
from tools.bench import bench_heap

JURIS = "vlt"


def vlt_games(root: Path = ROOT, denom_cents: int = config.DENOM_CENTS) -> list[str]:
    """The shipped games (bench_heap.shipped_games, the table games too) that a vlt cabinet offers
    at a credit of denom_cents: those its boot check passes (firmware/startup.py load_games: the
    certificate, the profile's kinds, maximum bet and prize, a play flow), run here on the host."""
    ids = bench_heap.shipped_games(root, tables=True)
    cfg = SimpleNamespace(JURISDICTION=JURIS, DENOM_CENTS=denom_cents)
    books = SimpleNamespace(st=None)  # nothing is logged: no books here
    checked = load_games(ids, str(root / "games" / "models"), str(root / "games" / "certs"), books, cfg,
                         lambda _: None)
    return [gid for gid, ok, _, _ in checked if ok]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench.bench_heap_vlt", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every game the vlt profile offers)")
    ap.add_argument("--jobs", type=int, default=bench_heap.JOBS, help="cabinets measured at once (default %(default)s)")
    ap.add_argument("--max", type=int, default=0, help="largest heap tried, in K (default %d)" % bench_heap.BUDGET_K)
    ap.add_argument("--no-census", action="store_true",
                    help="without the table of the heap in use after boot by subsystem (tools/bench/heap_census.py)")
    args = ap.parse_args([] if argv is None else argv)
    games = [g for g in args.games.split(",") if g] or vlt_games()
    rows = bench_heap.table(games, ["frozen"], args.max or None, args.jobs, ("frozen",), JURIS, sas_only=True)
    if not args.no_census:
        bench_heap.census_table(rows, args.jobs, JURIS)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
