# Boot check of a card-poker table game against its certificate (by-law s. 93; L-6, r. 13, s. 1):
#   ok, reason, game = games.cardtable_cert.check("games/models/three-card-96.json", "games/certs/three-card-96.json")
# 1. the model is read and built by its engine (games/cardtable_games.py): a malformed model, or one
#    past a bound, is refused naming the fault;
# 2. the canonical math hash of the model (every pay and every word) equals the certificate's, and
#    so do its id and format;
# 3. every wager a stake can name, at every bet level, has certified returns (per credit staked and
#    per credit wagered, optimal and built-in strategy) of at least 83 % (games/floor.py): a wager
#    under it is refused by its name;
# 4. the most one round pays (max_award) and puts at risk (max_risk) at each bet level are read into
#    game.max_award / game.max_risk (lists in the order of game.bets) for the firmware to hold to its
#    jurisdiction's prize and bet limits;
# 5. the game lets go of the rules' text and the model as read (CardTable.let_go_text): its rules
#    page reads the paragraphs again from the same model file.
# The device does not recompute the returns: 3 Card Poker is 407 million deals and Caribbean Stud
# 20 trillion (tools/certify/); the hash ties the certified figures to this very model, and the
# signed release manifest authenticates the certificate. Never raises: a failure is
# (False, reason, None); out of memory, one collection and a second try, as games/certificate.py.
import gc
import json

from games.floor import RTP_FLOOR_NUM, meets_floor
from games.model import read
from rng.crypto.canon import math_hash

NO_MEMORY = "boot check needs more memory than this board has free"
MEASURES = (("rtp", "return"), ("rtp_wagered", "return per credit wagered"),
            ("strategy_rtp", "built-in strategy's return"),
            ("strategy_rtp_wagered", "built-in strategy's return per credit wagered"))


def check(model_path, cert_path):
    try:
        return _check(model_path, cert_path)
    except MemoryError:
        pass  # leave the handler first: its frame still holds what the first try allocated
    gc.collect()
    try:
        return _check(model_path, cert_path)
    except MemoryError as e:
        return False, "%s (%s)" % (NO_MEMORY, e), None


def _frac(s):
    if not isinstance(s, str):
        raise ValueError("certified fraction %r is not \"p/q\"" % (s,))
    p, _, q = s.partition("/")
    p = int(p)
    q = int(q) if q else 1
    if q <= 0 or p < 0:
        raise ValueError("bad fraction %r" % s)
    return p, q


def _pct(p, q):
    x = p * 100000 // q
    return "%d.%03d %%" % (x // 1000, x % 1000)


def _per_bet(cert, key, bets):
    # a list of whole credits per bet level, or a reason
    m = cert.get(key)
    if not isinstance(m, dict):
        return None, "certificate: no %s" % key
    out = []
    for b in bets:
        v = m.get(str(b))
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            return None, "certificate: bet %d: no %s in whole credits" % (b, key)
        out.append(v)
    return out, None


def _check(model_path, cert_path):
    from games.cardtable_games import engine

    try:
        model = read(model_path)
        with open(cert_path) as f:
            cert = json.load(f)
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 missing or unreadable file, bad JSON
        return False, "unreadable model or certificate: %s" % (e,), None
    if not isinstance(cert, dict):
        return False, "unreadable certificate: not an object", None
    try:
        if not isinstance(model, dict):
            return False, "invalid model: model must be an object", None
        game = engine(model.get("format"))(model)  # first: a malformed model is named as such
        h = math_hash(model)
        gc.collect()
        if cert.get("math_hash") != h:
            return False, "math hash mismatch: model %s..., certificate %s..." % (
                h[:16], str(cert.get("math_hash"))[:16]), None
        if cert.get("id") != game.id:
            return False, "certificate is for %r, model is %r" % (cert.get("id"), game.id), None
        if cert.get("game") != game.FORMAT:
            return False, "certificate is for a %r game, model is %r" % (cert.get("game"), game.FORMAT), None
        lo = None
        for w in game.m.stakes:
            for key, what in MEASURES:
                per = (cert.get(key) or {}).get(w)
                if not isinstance(per, dict):
                    return False, "wager %s: no certified %s" % (w, what), None
                for b in game.bets:
                    s = per.get(str(b))
                    if s is None:
                        return False, "wager %s, bet %d: no certified %s" % (w, b, what), None
                    p, q = _frac(s)
                    if not meets_floor(p, q):
                        return False, "wager %s, bet %d: certified %s %s below the %d %% floor (s. 93)" % (
                            w, b, what, _pct(p, q), RTP_FLOOR_NUM), None
                    if key == "rtp" and (lo is None or p * lo[1] < lo[0] * q):
                        lo = (p, q)
        game.max_award, why = _per_bet(cert, "max_award", game.bets)
        if why:
            return False, why, None
        game.max_risk, why = _per_bet(cert, "max_risk", game.bets)
        if why:
            return False, why, None
        game.let_go_text(model_path)  # the rules page reads them again: not held in the heap
        return True, "ok: %s, %d wagers, %d bet levels, lowest return %s" % (
            game.id, len(game.m.stakes), len(game.bets), _pct(lo[0], lo[1])), game
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 a malformed model disables the game, never crashes the boot
        return False, "invalid model: %s" % (e,), None
