"""Replay a machine's game recall bit for bit through the same game code, under CPython.

    python -m sim.replay RECALL.json             (the JSON line of the console's `recall json`)
    python -m sim.replay --url socket://127.0.0.1:7770   (fetch it from a running machine)

For every recorded game: the model named in the record is loaded, the game is re-evaluated from its
recorded RNG draws, and the award, the full-outcome digest (firmware/recall.py) and the credits
before/after are compared. Any difference is flagged and the exit status is 1.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from firmware.recall import digest
from games import load as load_reels
from games import keno

ROOT = Path(__file__).resolve().parent.parent


def load_game(path: str):
    """The engine a model file names: keno (jeton-keno/1) or reels."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    return keno.KenoGame(raw) if raw.get("format") == keno.FORMAT else load_reels(path)


def replay(export: dict, models_dir: Path) -> list[dict]:
    games = {}
    results = []
    for rec in export["games"]:
        gid = rec["id"]
        if gid not in games:
            games[gid] = load_game(str(models_dir / f"{gid}.json"))
        outcome = games[gid].evaluate(rec["bet"], rec["draws"])
        diffs = []
        prog, fixed = rec.get("prog") or (0, 0)  # a progressive paid instead of a fixed award
        if outcome.award - fixed + prog != rec["win"]:
            diffs.append(f"award {outcome.award} (progressive {prog} for {fixed}) != recorded {rec['win']}")
        if rec.get("h") is not None and digest(outcome) != rec["h"]:
            diffs.append(f"outcome digest {digest(outcome)} != recorded {rec['h']}")
        credited = 0 if rec.get("hand") or rec.get("forfeit") else rec["win"]
        money_in = rec.get("in", 0)  # coins or notes credited while the reels turned
        if rec["after"] != rec["before"] - rec["bet"] + credited + money_in:
            diffs.append(f"credits {rec['before']} - {rec['bet']} + {credited} + in {money_in} "
                         f"!= recorded {rec['after']}")
        results.append({"n": rec["n"], "id": gid, "bet": rec["bet"], "win": outcome.award,
                        "window": outcome.window, "diffs": diffs})
    return results


def fetch(url: str) -> dict:
    from tools.console import ConsoleClient

    client = ConsoleClient(url)
    try:
        return json.loads(client.command("recall json")[-1])
    finally:
        client.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.replay", description=__doc__.splitlines()[0])
    ap.add_argument("recall", nargs="?", help="file holding the console's `recall json` output")
    ap.add_argument("--url", help="fetch the recall from a machine's console (pyserial URL)")
    ap.add_argument("--models", default=str(ROOT / "games" / "models"))
    args = ap.parse_args(argv)
    if args.url:
        export = fetch(args.url)
    elif args.recall:
        export = json.loads(Path(args.recall).read_text())
    else:
        ap.error("give a recall file or --url")
    results = replay(export, Path(args.models))
    bad = 0
    for r in results:
        status = "OK " if not r["diffs"] else "DIFF"
        print(f"{status} game #{r['n']} {r['id']} bet {r['bet']} win {r['win']} {r['window']}")
        for d in r["diffs"]:
            print(f"     {d}")
        bad += bool(r["diffs"])
    print(f"{len(results) - bad} reproduced, {bad} differ (machine {export.get('machine', '?')})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
