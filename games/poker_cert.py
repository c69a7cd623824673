# Boot check of a video poker model against its certificate (jeton-poker/1, by-law s. 93):
#   ok, reason, game = games.poker_cert.check("games/models/jacks-98.json", "games/certs/jacks-98.json")
# 1. the canonical math hash of the model (pay table AND built-in strategy) equals the certificate's;
# 2. at every bet level both the optimal return and the built-in strategy's return are >= 83 %.
# The device does not recompute them: the exact analysis covers 2.6 million deals x 32 holds (host,
# tools/certify/poker.py); the hash ties the certified figures to this very pay table and strategy.
# Never raises: a failure is (False, reason, None).
import gc
import json

from games.certificate import NO_MEMORY, _frac, _pct, maxima
from games.floor import RTP_FLOOR_NUM, meets_floor
from games.model import read
from games.poker import PokerGame
from rng.crypto.canon import math_hash


def check(model_path, cert_path):
    try:
        return _check(model_path, cert_path)
    except MemoryError:
        pass
    gc.collect()
    try:
        return _check(model_path, cert_path)
    except MemoryError as e:
        return False, "%s (%s)" % (NO_MEMORY, e), None


def _check(model_path, cert_path):
    try:
        model = read(model_path)
        with open(cert_path) as f:
            cert = json.load(f)
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001  missing or unreadable file, bad JSON
        return False, "unreadable model or certificate: %s" % (e,), None
    if not isinstance(cert, dict):
        return False, "unreadable certificate: not an object", None
    try:
        game = PokerGame(model)  # first: a malformed model is named as such, not as a hash mismatch
        h = math_hash(model)
        gc.collect()
        if cert.get("math_hash") != h:
            return False, "math hash mismatch: model %s..., certificate %s..." % (
                h[:16], str(cert.get("math_hash"))[:16]), None
        if cert.get("id") != game.id:
            return False, "certificate is for %r, model is %r" % (cert.get("id"), game.id), None
        if game.m.strategy is None:
            return False, "no built-in strategy (s. 93 is checked on it)", None
        lo = None
        for bet in game.bets:
            for key, what in (("rtp", "return"), ("strategy_rtp", "built-in strategy's return")):
                s = (cert.get(key) or {}).get(str(bet))
                if s is None:
                    return False, "bet %d: no certified %s" % (bet, what), None
                p, q = _frac(s)
                if not meets_floor(p, q):
                    return False, "bet %d: certified %s %s below the %d %% floor (s. 93)" % (
                        bet, what, _pct(p, q), RTP_FLOOR_NUM), None
                if key == "strategy_rtp" and (lo is None or p * lo[1] < lo[0] * q):
                    lo = (p, q)
        game.max_award, why = maxima(cert, game.bets)
        if why:
            return False, why, None
        return True, "ok: %s, %d bet levels, lowest built-in strategy return %s" % (
            game.id, len(game.bets), _pct(lo[0], lo[1])), game
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001  a malformed model disables the game, never crashes the boot
        return False, "invalid model: %s" % (e,), None
