"""`make demo`: boot the firmware on the emulated board, insert 10 tokens, play 5 games, cash out,
and print the meters (credits, industry meanings) as the final JSON line. `--games` and `--profile`
choose the offered games and the board profile, as for `make run`."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile

from sim.cabinet import add_config_args, boot_or_refuse, firmware_args
from sim.harness import EmulatedCabinet


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.demo")
    ap.add_argument("--heap", default=None, help="the firmware's fixed heap (default: the board's, sim/harness.py BOARD_HEAP)")
    ap.add_argument("--tokens", type=int, default=10)
    ap.add_argument("--plays", type=int, default=5, help="games to play")
    add_config_args(ap)
    args = ap.parse_args(argv)
    state = tempfile.mkdtemp(prefix="jeton-demo-")
    cab = EmulatedCabinet(state, heap=args.heap, extra_args=firmware_args(args.games, args.profile, args.jurisdiction))
    refused = boot_or_refuse(cab)
    if refused is not None:
        shutil.rmtree(state, ignore_errors=True)
        return refused
    print(f"game {cab.firmware.ready.get('game')} on {args.profile}")
    try:
        assert cab.panel
        s = dict(cab.panel.screen)
        for i in range(args.tokens):
            s = cab.insert_token()
            print(f"token {i + 1}: credits {s['credits']}")
        for i in range(args.plays):
            if s["credits"] < s["bet"]:  # a game with high bets (aurore: 20 credits) may run out first
                print(f"game {i + 1}: {s['credits']} credits, bet {s['bet']}: no more games")
                break
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
