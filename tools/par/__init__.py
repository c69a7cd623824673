"""PAR sheets: `python -m tools.par [GAME ...] [--out build/par]` (make par: every shipped model).

GAME is a game id, as `make run GAMES=` takes it (`aurore-88`: games/models/aurore-88.json), or the
path of a model file.

For each model: a terminal summary, and in the output directory <id>.md (with its charts as
<id>-bet<B>-*.svg beside it) and <id>.html (charts inline): the exact figures per bet level, the reel
strips with their weights, the pay table, every pay with its hits per cycle and its part of the
return, the free spins feature, the progressive, the win distribution (log scale, free spins
included) and the convergence of the realised return. Keno (tools/par/keno_sheet.py): per spot
count and bet. Video poker (tools/par/poker_sheet.py): optimal play and the built-in strategy per
bet level, each award's chance and part of the return, the strategy's hold patterns, checked
against the shipped certificate. Blackjack (tools/par/blackjack_sheet.py): every wager under optimal
play and the built-in strategy, the strategy's table, what a round risks and returns. Table games
(tools/par/table_sheet.py): every wager at every bet level, and the by-law's wagers the model does
not offer with their verdict. The card-poker table games (tools/par/cardtable_sheet.py): per wager,
optimal and built-in strategy, every outcome, the round's most paid and put at risk. Every figure is
the certifier's (`python -m tools.certify --json`).
Each sheet opens with what a lab files it under (tools/par/filing.py: the software version, the
source's date, the denomination), and writes long exact fractions in full at its end. --pdf also
prints each sheet to <id>.pdf in headless Chromium (make par-pdf).
"""
from __future__ import annotations

import argparse
import fcntl
import functools
import glob
import hashlib
import json
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from tools.certify import cardtable, keno, table
from tools.certify.core import certify_model, load_model
from tools.certify.poker_report import certify_poker
from tools.par import (
    blackjack_sheet,
    browser,
    cardtable_sheet,
    filing,
    keno_sheet,
    poker_sheet,
    render,
    sheet,
    table_sheet,
)
from tools.progress import wanted

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "par-cache"
# what a certifier's result depends on besides its model: the code of these folders
CODE = ("tools", "games", "rng")


@functools.lru_cache(maxsize=None)
def code_digest(root: Path = ROOT) -> str:
    """SHA-256 over the path and bytes of every .py file under CODE: a change anywhere in the
    certifiers or the game code they import makes every cached result stale."""
    h = hashlib.sha256()
    for folder in CODE:
        for f in sorted((root / folder).rglob("*.py")):
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _cached(f: Path) -> Any:
    try:
        return pickle.loads(f.read_bytes())  # written by this tool into the build folder, never received
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            ImportError):
        return None  # not cached yet, or unreadable: computed again


def certified(certify: Callable[[dict], Any], raw: dict, cache: Path | None = CACHE) -> Any:
    """certify(raw), or what it gave for the same model and the same code (the blackjack and
    card-table certifiers take minutes: a release built again, as its reproducibility test does,
    a sheet written again, or the certifier's tests of a shipped game beside a release, read their
    result from cache). Two processes after the same result: one computes it, the other waits for
    it. cache None: always computed."""
    if cache is None:
        return certify(raw)
    key = hashlib.sha256(("%s.%s\0%s\0" % (certify.__module__, certify.__qualname__, code_digest())).encode()
                         + json.dumps(raw, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    f = cache / (key + ".pickle")
    rep = _cached(f)
    if rep is not None:
        return rep
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / (key + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process ends
        rep = _cached(f)  # computed while this one waited
        if rep is None:
            rep = certify(raw)
            tmp = cache / ("%s.%d.tmp" % (key, os.getpid()))
            tmp.write_bytes(pickle.dumps(rep))
            tmp.replace(f)  # whole or absent: a build cut short leaves no half result
    return rep


def build(path: str, epoch: int | None = None, cache: Path | None = CACHE) -> tuple[dict, list[tuple]]:
    """(the certifier's result, the sheet's blocks) of one model file; epoch: the source's date
    (tools/par/filing.py source_epoch), None: undated. Nothing of the run (its time) is written.
    cache: where certifier results are kept (certified()), None: computed afresh."""
    raw = load_model(path)
    if keno.is_keno(raw):  # issue 13: its own figures, per spot count
        cert = certified(keno.certify, raw, cache)
        return cert, keno_sheet.blocks(cert, raw, epoch)
    if poker_sheet.is_poker(raw):  # issue 13: one solver run, optimal play and the built-in strategy
        rep = certified(certify_poker, raw, cache)
        return rep, poker_sheet.blocks(rep, raw, epoch=epoch)
    if blackjack_sheet.is_blackjack(raw):  # issue 26: every wager, optimal play and the built-in table
        from tools.certify.blackjack import certify as certify_blackjack

        rep = certified(certify_blackjack, raw, cache)
        return rep, blackjack_sheet.blocks(rep, raw, epoch)
    if cardtable_sheet.is_cardtable(raw):  # issue 26: per wager, optimal and built-in strategy
        rep = certified(cardtable.certify, raw, cache)
        return rep, cardtable_sheet.blocks(rep, raw, epoch)
    if table_sheet.is_table(raw):  # issue 26: every wager at every bet level, and the by-law's others
        cert = certified(table.certify, raw, cache)
        return cert, table_sheet.blocks(cert, raw, epoch)
    cert = certified(certify_model, raw, cache)
    return cert, sheet.blocks(cert, raw, epoch)


def write(path: str, out: str, epoch: int | None = None, cache: Path | None = CACHE) -> str:
    """Writes the sheet of one model into out; returns its one-line summary."""
    return save(*build(path, epoch, cache), out)


def save(cert: dict, blocks: list[tuple], out: str) -> str:
    """Writes a built sheet (build()) into out; returns its one-line summary."""
    os.makedirs(out, exist_ok=True)
    ident = cert["id"]
    with open(os.path.join(out, ident + ".md"), "w", encoding="utf-8") as fh:
        fh.write(render.markdown(blocks))
    with open(os.path.join(out, ident + ".html"), "w", encoding="utf-8") as fh:
        fh.write(render.page("PAR sheet %s" % ident, blocks))
    for b in blocks:
        if b[0] == "svg":
            with open(os.path.join(out, b[1] + ".svg"), "w", encoding="utf-8") as fh:
                fh.write(b[2])
    if isinstance(cert, cardtable.Report):
        return cardtable_sheet.summary(cert, cardtable_sheet.cert_check(cert))
    if "spots" in cert:
        return keno_sheet.summary(cert)
    if cert.get("format") == blackjack_sheet.FORMAT:  # before the table games': its report has wagers too
        return blackjack_sheet.summary(cert)
    if "wagers" in cert:
        return table_sheet.summary(cert)
    if "deal_classes" in cert:
        return poker_sheet.summary(cert, poker_sheet.cert_check(cert))
    return f"{ident}: " + ", ".join(f"bet {b} {float(f.rtp) * 100:.4f} % (hit 1 in {1 / float(f.hit):.2f},"
                                    f" σ {f.std_dev:.2f})" for b, f in cert["bets"].items())


MODELS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "games", "models")


def model_path(game: str, models: str = MODELS) -> str:
    """The model file of a game id (models/<id>.json) or a model file's own path; ValueError, in one
    line naming the shipped ids, when it is neither."""
    if os.path.isfile(game):
        return game
    by_id = os.path.join(models, game + ".json")
    if os.sep not in game and "/" not in game and os.path.isfile(by_id):
        return by_id
    ids = sorted(f[:-5] for f in os.listdir(models) if f.endswith(".json"))
    raise ValueError("%s: no such game id or model file (game ids: %s)" % (game, ", ".join(ids)))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.par", description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", metavar="GAME",
                    help="a game id (aurore-88) or a model file (default: every shipped model)")
    ap.add_argument("--out", default=os.path.join("build", "par"))
    ap.add_argument("--pdf", action="store_true", help="also <id>.pdf, each sheet printed by headless Chromium")
    ap.add_argument("--fresh", action="store_true",
                    help="compute every figure again, not from build/par-cache (kept per model and code)")
    a = ap.parse_args(argv)
    try:
        paths = [model_path(m) for m in a.models] or sorted(glob.glob(os.path.join(MODELS, "*.json")))
    except ValueError as e:
        ap.exit(2, "%s: %s\n" % (ap.prog, e))
    for p in paths:
        try:
            load_model(p)
        except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
            ap.exit(2, "%s: %s: not a model: %s\n" % (ap.prog, p, e))
    epoch = filing.source_epoch()  # the source's date, the same for every sheet of the run
    bar = tqdm(paths, desc="PAR sheets", unit="model", file=sys.stderr, disable=not wanted())
    for p in bar:
        bar.set_postfix_str(os.path.basename(p))
        tqdm.write(write(p, a.out, epoch, None if a.fresh else CACHE))
        if a.pdf:
            page = os.path.join(a.out, load_model(p)["id"] + ".html")
            browser.pdf(page, page[:-5] + ".pdf", epoch)
    print("PAR sheets in %s/" % a.out)
    return 0
