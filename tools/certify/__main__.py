"""python -m tools.certify MODEL [MODEL ...] [--json] [--write-cert [DIR] | --check-certs [DIR]]

Prints the exact return per bet level, hit frequency, standard deviation and the win table (--json:
also the free spins feature and the progressive's figures, as the PAR sheet shows them); exits 1
with the reason when any bet level is below the 83 % floor of by-law s. 93 (no option lowers it),
2 when a model is invalid. --write-cert writes games/certs/<id>.json (only for models that pass).
--check-certs compares each model with its shipped certificate games/certs/<id>.json (what the
device's boot check trusts) and exits 1, naming the difference, on a missing certificate, a math
hash or an exact return or hit frequency that differs (`make certify`).
--jurisdiction vlt checks the game against the profile it is offered under (firmware/jurisdiction.py):
maximum bet x credit value <= $2.50, the most one game can pay (lines, scatter, the whole free-spin
series and the progressive at its ceiling; tools/certify/maxpay.py) <= $1,000, a progressive with a
ceiling, credit value <= $0.25 (--denom CENTS, default firmware/config.py DENOM_CENTS), return >= 83 %;
a broken rule is a refusal that names it (exit 1). Blackjack (jeton-blackjack/1, tools/certify/blackjack.py):
every wager's exact return under optimal play and the built-in strategy, a wager under 83 % refused by
name; under vlt what one round can put at risk (doubles, a split, insurance, side wagers) is held to
the bet limit and what it can return to the prize limit. A progressive whose rate cannot fit under its
ceiling (the roll-over would grow without end) is refused under every profile.
The card-poker table games (issue 26, tools/certify/cardtable.py) are certified per wager: every
wager under the floor is refused by its name; under vlt the bet limit holds the whole round's risk.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from firmware import config as fw_config
from firmware import jurisdiction
from games.model import Model, ModelError
from tools.certify import cardtable, core, keno, table
from tools.certify.core import load_model
from tools.certify.maxpay import describe
from tools.certify.progressive import ceiling_refusals

CERT_DIR = os.path.join("games", "certs")


def short(frac: str) -> str:
    return frac if len(frac) <= 41 else "(exact, %d/%d digits)" % tuple(len(x) for x in frac.split("/"))


def fault(path: str, what: str, e: BaseException) -> str:
    """One line naming the model and the problem: the certifier never prints a traceback."""
    msg = " ".join(str(e).split()) or type(e).__name__
    return "%s: %s: %s" % (path, what, msg if len(msg) <= 300 else msg[:300] + "...")


def summary(rep: dict, secs: float) -> str:
    lines = ["%s  (hash %s…, cycle %d%s, %.2f s)" % (
        rep["id"], rep["math_hash"][:16], rep["cycle"],
        ", free-spin cycle %d" % rep["free_cycle"] if rep["free_cycle"] else "", secs)]
    for bet, b in rep["bets"].items():
        lines.append("  bet %-4s RTP %s = %.4f %%  hit 1 in %.3f  σ %.3f  VI90 %.2f  feature %.2f %% of return"
                     "  one game pays at most %s"
                     % (bet, short(b["rtp"]), b["rtp_float"] * 100, 1 / b["hit_frequency_float"], b["std_dev"],
                        b["volatility_index_90"], b["feature_share"] * 100, describe(b["max_award"])))
    p = rep.get("progressive")
    if p:
        lines.append("  progressive: %s at bet %d, reset %d, %s, grows by %s of every credit wagered at bet %d "
                     "(the returns above count it at its reset: a floor)" % (
                         p["pay"], p["bet"], p["reset"], "no ceiling" if p["ceiling"] is None else "ceiling %d" % p["ceiling"],
                         p["rate"], p["bet"]))
        lines.append("  progressive won 1 in %.0f games at bet %d; return at bet %d: %s"
                     % (p["one_in"], p["bet"], p["bet"], ", ".join("%.4f %% at %.0f" % (v["return_float"] * 100, v["level"])
                                                                 for v in p["levels"])))
    return "\n".join(lines)


def check_cert(path: str, cert: dict, cert_dir: str, quiet: bool, kind=core) -> bool:
    """True when the shipped certificate of this model matches; else one line per difference."""
    cpath = os.path.join(cert_dir, cert["id"] + ".json")
    try:
        with open(cpath, encoding="utf-8") as fh:
            shipped = json.load(fh)
    except FileNotFoundError:
        print("%s: NO CERTIFICATE: %s does not exist" % (path, cpath), file=sys.stderr)
        return False
    except (OSError, ValueError) as e:
        print("%s: UNREADABLE CERTIFICATE %s: %s" % (path, cpath, e), file=sys.stderr)
        return False
    diffs = kind.cert_mismatches(cert, shipped if isinstance(shipped, dict) else {})
    for d in diffs:
        print("%s: CERTIFICATE MISMATCH with %s: %s" % (path, cpath, d), file=sys.stderr)
    if not diffs and not quiet:
        print("  matches its certificate %s" % cpath)
    return not diffs


def maxima(kind, cert: dict) -> list[int | None]:
    """The most one game pays at each bet level, in order (keno: the largest over its spot counts)."""
    if kind is keno:
        out: list[int | None] = []
        for b in cert["bets"]:
            per = [sp["bets"][b]["max_award"] for sp in cert["spots"].values()]
            out.append(None if None in per else max(per))
        return out
    return [f["max_award"] if isinstance(f, dict) else f.max_award for f in cert["bets"].values()]


def limit_refusals(raw: dict, juris: str, denom: int, most: list[int | None]) -> list[str]:
    """The profile's bet, prize and credit-value rules the game breaks, for every kind of game:
    most is what one game can pay at most at each bet level (maxima)."""
    fmt = raw.get("format")
    if fmt == "jeton-keno/1":
        from games.keno_model import KenoModel

        m = KenoModel(raw)
    elif fmt == "jeton-poker/1":
        from games.poker_model import PokerModel

        m = PokerModel(raw)
    else:
        m = Model(raw)
    return jurisdiction.check_game(juris, denom, m.bets, most, m.progressive)


def write_cert(cert_dir: str, cert: dict, kind, quiet: bool) -> None:
    """The certificate of a model that passed, as `kind` (core, keno, poker_report) writes it."""
    os.makedirs(cert_dir, exist_ok=True)
    out = os.path.join(cert_dir, cert["id"] + ".json")
    with open(out, "w", encoding="utf-8") as fh:
        if hasattr(kind, "dumps"):  # its own layout (a table game's: one wager a line)
            fh.write(kind.dumps(kind.certificate(cert)))
        else:
            json.dump(kind.certificate(cert), fh, indent=1)
            fh.write("\n")
    if not quiet:
        print("  certificate written: %s" % out)


def profile_refusals(raw: dict, cert: dict, juris: str, denom: int) -> list[str]:
    """Every rule of the jurisdiction profile the game breaks, each naming it."""
    out = limit_refusals(raw, juris, denom, maxima(core, cert))
    for bet, f in cert["bets"].items():
        why = jurisdiction.check_return(juris, f.rtp.numerator, f.rtp.denominator)
        if why:
            out.append("bet %s: %s" % (bet, why))
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.certify", description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--json", action="store_true", help="print the full report as JSON")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--write-cert", nargs="?", const=CERT_DIR, default=None, metavar="DIR")
    how.add_argument("--check-certs", nargs="?", const=CERT_DIR, default=None, metavar="DIR",
                     help="fail unless every model matches its certificate DIR/<id>.json")
    ap.add_argument("--jurisdiction", choices=sorted(jurisdiction.PROFILES), default="casino",
                    help="the profile the game is offered under (default casino: the s. 93 floor only)")
    ap.add_argument("--denom", type=int, default=fw_config.DENOM_CENTS, metavar="CENTS",
                    help="the value of a credit in cents (default firmware/config.py DENOM_CENTS)")
    a = ap.parse_args(argv)
    for opt in ("write_cert", "check_certs"):
        # `--check-certs MODEL.json ...`: the optional DIR took the first model; a file is never a DIR
        d = getattr(a, opt)
        if d is not None and d != CERT_DIR and d.endswith(".json"):
            a.models.insert(0, d)
            setattr(a, opt, CERT_DIR)
    rc = 0
    reports = []
    for path in a.models:
        try:
            raw = load_model(path)
        except (ModelError, OSError) as e:  # unreadable, malformed JSON or beyond a reader's bound
            print(fault(path, "INVALID MODEL", e), file=sys.stderr)
            rc = max(rc, 2)
            continue
        try:
            if isinstance(raw, dict) and raw.get("format") == "jeton-poker/1":  # its own exact analysis
                rc = max(rc, _poker(path, raw, a, reports))
            elif cardtable.is_cardtable(raw):  # the card-poker table games: per wager (tools/certify/cardtable.py)
                rc = max(rc, _cardtable(path, raw, a, reports))
            elif isinstance(raw, dict) and raw.get("format") == "jeton-blackjack/1":  # issue 26
                rc = max(rc, _blackjack(path, raw, a, reports))
            elif table.is_table(raw):  # roulette, craps, sic bo, wheel, baccarat: every wager on its own
                rc = max(rc, _table(path, raw, a, reports))
            else:
                rc = max(rc, _reels_or_keno(path, raw, a, reports))
        except (ModelError, ValueError) as e:  # the model's fault, named: a bound, a wrong value
            print(fault(path, "INVALID MODEL", e), file=sys.stderr)
            rc = max(rc, 2)
        except Exception as e:  # noqa: BLE001 a fault of the certifier itself: one line, and a failure
            print(fault(path, "CERTIFIER FAULT (%s)" % type(e).__name__, e), file=sys.stderr)
            rc = max(rc, 3)
    if a.json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports, indent=1))
    return rc


def _reels_or_keno(path: str, raw: dict, a: argparse.Namespace, reports: list) -> int:
    t0 = time.perf_counter()
    kind = keno if keno.is_keno(raw) else core  # a keno model (jeton-keno/1) has its own figures
    cert = keno.certify(raw) if kind is keno else core.certify_model(raw)
    secs = time.perf_counter() - t0
    rep = kind.to_json(cert)
    rep["model"] = path
    rep["seconds"] = secs
    reports.append(rep)
    if not a.json:
        print(keno.summary(rep, secs) if kind is keno else summary(rep, secs))
    # keno's floor is checked per spot count by below_floor; its limits like any game's
    bad = kind.below_floor(cert) + (limit_refusals(raw, a.jurisdiction, a.denom, maxima(keno, cert)) if kind is keno
                                    else profile_refusals(raw, cert, a.jurisdiction, a.denom) + ceiling_refusals(cert))
    return _verdict(path, cert, bad, a, kind)


def _poker(path: str, raw: dict, a: argparse.Namespace, reports: list) -> int:
    from tools.certify import poker_report as pr

    rep = pr.certify_poker(raw)
    js = pr.to_json(rep)
    js["model"] = path
    reports.append(js)
    if not a.json:
        print(pr.summary(rep))
    bad = pr.below_floor(rep) + limit_refusals(raw, a.jurisdiction, a.denom, maxima(pr, rep))
    return _verdict(path, rep, bad, a, pr)


def _verdict(path: str, rep, bad: list[str], a: argparse.Namespace, kind) -> int:
    """A game's refusals by name, its certificate checked or written (kind: the family's certifier
    module, which reads and writes its certificates): 1 when refused or not matching."""
    for reason in bad:
        print("%s: REFUSED: %s" % (path, reason), file=sys.stderr)
    rc = 1 if bad else 0
    if a.check_certs and not check_cert(path, rep, a.check_certs, quiet=a.json, kind=kind):
        rc = 1
    if a.write_cert and not bad:
        write_cert(a.write_cert, rep, kind, a.json)
    return rc


def _blackjack(path: str, raw: dict, a: argparse.Namespace, reports: list) -> int:
    from tools.certify import blackjack as bj

    rep = bj.certify(raw)
    js = bj.to_json(rep)
    js["model"] = path
    reports.append(js)
    if not a.json:
        print(bj.summary(rep))
    bad = bj.below_floor(rep) + bj.limit_refusals(rep, a.jurisdiction, a.denom)
    return _verdict(path, rep, bad, a, bj)


def _table(path: str, raw: dict, a: argparse.Namespace, reports: list) -> int:
    t0 = time.perf_counter()
    cert = table.certify(raw)
    secs = time.perf_counter() - t0
    js = table.to_json(cert)
    js["model"] = path
    js["seconds"] = secs
    reports.append(js)
    if not a.json:
        print(table.summary(js, secs))
    # every wager under the floor, by name; the profile's kinds of game and limits
    bad = table.below_floor(cert) + table.profile_refusals(cert, a.jurisdiction, a.denom)
    return _verdict(path, cert, bad, a, table)


def _cardtable(path: str, raw: dict, a: argparse.Namespace, reports: list) -> int:
    rep = cardtable.certify(raw)
    js = cardtable.to_json(rep)
    js["model"] = path
    reports.append(js)
    if not a.json:
        print(cardtable.summary(rep))
    bad = cardtable.below_floor(rep) + cardtable.profile_refusals(rep, a.jurisdiction, a.denom)
    return _verdict(path, rep, bad, a, cardtable)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
