"""python -m tools.certify.blackjack_strategy MODEL [MODEL ...] [--write]

The total-dependent built-in strategy for a blackjack model's rules (tools/certify/blackjack.py
basic_strategy: for each row and dealer up card, the decision with the best exact return over every
two-card hand of that row). Prints the table; --write puts it into the model file as its "strategy"
(the model then needs a new certificate: its math hash covers the table)."""
from __future__ import annotations

import argparse
import json
import sys

from games.blackjack_model import HARD_ROWS, PAIR_ROWS, SOFT_ROWS, BlackjackModel
from tools.certify.blackjack import basic_strategy
from tools.certify.core import load_model


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.certify.blackjack_strategy", description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--write", action="store_true", help="write the table into each model file")
    a = ap.parse_args(argv)
    for path in a.models:
        raw = load_model(path)
        rules = dict(raw)
        if not isinstance(rules.get("strategy"), dict):  # a new model: any table will do to read its rules
            rules["strategy"] = {"hard": {str(t): "S" * 10 for t in HARD_ROWS}, "soft": {str(t): "S" * 10 for t in SOFT_ROWS},
                                 "pair": {r: "-" * 10 for r in PAIR_ROWS}}
        st = basic_strategy(BlackjackModel(rules))
        if a.write:
            raw["strategy"] = st
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(raw, fh, indent=1, ensure_ascii=False)
                fh.write("\n")
        print(path)
        for part, rows in st.items():
            for r, v in rows.items():
                print("  %-4s %-2s %s" % (part, r, v))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
