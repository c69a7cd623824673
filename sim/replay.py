"""Replay a machine's game recall bit for bit through the same game code, under CPython.

    python -m sim.replay RECALL.json             (the console's `recall json` output, as saved by
                                                  `python -m tools.console URL --user ID -c "recall json"`)
    python -m sim.replay --url socket://127.0.0.1:7770 --user ID   (fetch it from a running machine;
                                                  the PIN is asked without echo, or JETON_PIN / --pin-file)

For every recorded game: the model named in the record is loaded, the game is re-evaluated from its
recorded RNG draws, and the award, the full-outcome digest (firmware/recall.py) and the credits
before/after are compared. Any difference is flagged and the exit status is 1. Input that is not a
recall (no such file, no JSON, a refused login) is one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import sys
from pathlib import Path

from firmware.recall import digest
from games import cardtable_games, keno, table_check
from games import load as load_reels

ROOT = Path(__file__).resolve().parent.parent


def load_game(path: str):
    """The engine a model file names: keno (jeton-keno/1), a table game (roulette, craps, sic bo, the
    wheel, baccarat: games/table_check.py FORMATS), a card-poker table game (games/cardtable_games.py
    FORMATS) or reels (and video poker)."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if raw.get("format") in table_check.FORMATS:
        return table_check.build(raw)
    if raw.get("format") in cardtable_games.FORMATS:
        return cardtable_games.load(path)
    return keno.KenoGame(raw) if raw.get("format") == keno.FORMAT else load_reels(path)


def replay(export: dict, models_dir: Path) -> list[dict]:
    games = {}
    results = []
    for rec in export["games"]:
        gid = rec["id"]
        if gid not in games:
            games[gid] = load_game(str(models_dir / f"{gid}.json"))
        try:
            game = games[gid]
            # a table round's draws are [stake, table, drawn] (games/table_game.py evaluate_round)
            outcome = (game.evaluate_round if hasattr(game, "evaluate_round") else game.evaluate)(rec["bet"], rec["draws"])
        except (ValueError, TypeError, IndexError) as e:  # draws no game of this model can have
            results.append({"n": rec["n"], "id": gid, "bet": rec["bet"], "win": None, "window": [],
                            "diffs": [f"the game refuses the recorded draws: {e}"]})
            continue
        diffs = []
        prog, fixed = rec.get("prog") or (0, 0)  # a progressive paid instead of a fixed award
        money_in = rec.get("in", 0)  # coins or notes credited while the reels turned
        if not all(isinstance(x, int) for x in (prog, fixed, money_in)):
            raise ValueError(f"game #{rec['n']}: 'prog' and 'in' must be integers")
        if outcome.award - fixed + prog != rec["win"]:
            diffs.append(f"award {outcome.award} (progressive {prog} for {fixed}) != recorded {rec['win']}")
        if rec.get("h") is not None and digest(outcome) != rec["h"]:
            diffs.append(f"outcome digest {digest(outcome)} != recorded {rec['h']}")
        credited = 0 if rec.get("hand") or rec.get("forfeit") else rec["win"]
        if rec["after"] != rec["before"] - rec["bet"] + credited + money_in:
            diffs.append(f"credits {rec['before']} - {rec['bet']} + {credited} + in {money_in} "
                         f"!= recorded {rec['after']}")
        results.append({"n": rec["n"], "id": gid, "bet": rec["bet"], "win": outcome.award,
                        "window": outcome.window, "diffs": diffs})
    return results


class BadRecall(Exception):
    """Input that is not a machine's recall: str() is the one line the command prints."""


GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # a model file's name in games/models, nothing else
RECORD = {"n": int, "id": str, "bet": int, "draws": list, "win": int, "before": int, "after": int}


def parse(text: str, where: str) -> dict:
    """The recall export in a console transcript: the `recall json` line, after any other lines
    (`logged in as ...` when tools.console logged in first). Checked field by field."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    found = [ln for ln in lines if ln.startswith("{")]
    if not found:
        said = next((ln for ln in lines if ln.startswith(("refused", "error"))), None)
        raise BadRecall(f"{where}: no recall in it" + (f" (the console said: {said})" if said else
                        " (save the console's `recall json` output)"))
    try:
        export = json.loads(found[-1])
    except ValueError as e:
        raise BadRecall(f"{where}: the recall is not valid JSON ({e})") from None
    games = export.get("games") if isinstance(export, dict) else None
    if not isinstance(games, list):
        raise BadRecall(f"{where}: not a recall export (no \"games\" list)")
    for i, rec in enumerate(games):
        bad = [k for k, t in RECORD.items() if not isinstance(rec, dict) or not isinstance(rec.get(k), t)]
        if bad:
            raise BadRecall(f"{where}: game record {i + 1} has no valid {', '.join(bad)}")
        if not GAME_ID.match(rec["id"]):
            raise BadRecall(f"{where}: game record {i + 1}: {rec['id']!r} is not a game id")
    return export


def read_pin(user: str, pin_file: str | None) -> str:
    """The PIN as tools.console takes it: --pin-file (scripts, tests), JETON_PIN, or asked without echo."""
    if pin_file:
        try:
            return Path(pin_file).read_text(encoding="utf-8").strip()
        except OSError as e:
            raise BadRecall(f"--pin-file {pin_file}: {e.strerror}") from None
    return os.environ.get("JETON_PIN") or getpass.getpass(f"PIN for {user}: ")


def fetch(url: str, user: str | None = None, pin: str | None = None) -> dict:
    """The recall of a running machine, read through its console (logged in as `user` first)."""
    import serial

    from tools.console import ConsoleClient, ConsoleClosed

    try:
        client = ConsoleClient(url)
    except ConsoleClosed as e:
        raise BadRecall(f"{url}: {e}") from None  # e.g. console busy: one session at a time
    except TimeoutError:
        raise BadRecall(f"{url}: no prompt: is the cabinet running?") from None
    except (serial.SerialException, OSError) as e:
        raise BadRecall(f"{url}: cannot open: {e}") from None
    try:
        if user:
            reply = client.login(user, pin or "")
            if not reply or not reply[0].startswith("logged in as"):
                raise BadRecall(f"{url}: login {user}: {' '.join(reply) or 'no answer'}")
        out = client.command("recall json")
    except ConsoleClosed as e:
        raise BadRecall(f"{url}: {e}") from None
    except TimeoutError as e:
        raise BadRecall(f"{url}: {e}") from None
    finally:
        client.close()
    if out and out[-1].startswith("refused"):
        hint = "" if user else " (give --user ID)"
        raise BadRecall(f"{url}: {out[-1]}{hint}")
    return parse("\n".join(out), url)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.replay", description=__doc__.splitlines()[0])
    ap.add_argument("recall", nargs="?", help="file holding the console's `recall json` output")
    ap.add_argument("--url", help="fetch the recall from a machine's console (pyserial URL)")
    ap.add_argument("--user", help="with --url: log in as this account first (recall needs one)")
    ap.add_argument("--pin-file", help="with --user: read the PIN from this file (else JETON_PIN, else asked)")
    ap.add_argument("--models", default=str(ROOT / "games" / "models"))
    args = ap.parse_args(argv)
    try:
        if args.url:
            pin = read_pin(args.user, args.pin_file) if args.user else None
            export = fetch(args.url, args.user, pin)
        elif args.recall:
            try:
                text = Path(args.recall).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise BadRecall(f"{args.recall}: {getattr(e, 'strerror', None) or e}") from None
            export = parse(text, args.recall)
        else:
            ap.error("give a recall file or --url")
        models = Path(args.models)
        for gid in sorted({rec["id"] for rec in export["games"]}):
            if not (models / f"{gid}.json").is_file():
                raise BadRecall(f"{gid}: no model {models / (gid + '.json')} to replay it with (--models DIR)")
        try:
            results = replay(export, models)
        except ValueError as e:  # a record field of the wrong shape ('prog' not a pair ...)
            raise BadRecall(f"{args.url or args.recall}: {e}") from None
    except BadRecall as e:
        print(f"replay: {e}", file=sys.stderr)
        return 2
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
