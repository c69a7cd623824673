"""`make demo`: boot the firmware on the emulated board, insert 10 tokens, play 5 games, cash out,
and print the meters (credits, industry meanings) as the final JSON line."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile

from sim.harness import EmulatedCabinet


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.demo")
    ap.add_argument("--heap", default="256K")
    ap.add_argument("--tokens", type=int, default=10)
    ap.add_argument("--games", type=int, default=5)
    args = ap.parse_args(argv)
    state = tempfile.mkdtemp(prefix="jeton-demo-")
    cab = EmulatedCabinet(state, heap=args.heap).boot()
    try:
        for i in range(args.tokens):
            s = cab.insert_token()
            print(f"token {i + 1}: credits {s['credits']}")
        for i in range(args.games):
            s = cab.play()
            print(f"game {i + 1}: reels {s['reels']} bet {s['bet']} win {s['win']} credits {s['credits']}")
        s = cab.cash_out()
        print(f"cash-out: {s['msg']}")
        meters = cab.meters()
    finally:
        cab.shutdown()
        shutil.rmtree(state, ignore_errors=True)
    print(json.dumps(meters, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
