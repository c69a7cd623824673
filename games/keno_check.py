# Boot check of a keno game against its certificate (s. 93), the keno side of
# games/certificate.py check(), which reads the model and hands a jeton-keno/1 dict here:
# math hash and id equal the certificate's; every offered spot count at every bet level has a
# certified return >= 83 % (games/floor.py), and the device's integer recomputation
# (games/keno_exact.py) equals it. Returns (ok, reason, game); raises only MemoryError (the caller
# collects and tries once more).
from games import keno_exact
from games.certificate import maxima  # games.certificate imports this module in a function
from games.floor import RTP_FLOOR_NUM, meets_floor
from games.keno import KenoGame
from rng.crypto.canon import math_hash


def check_model(model, cert, recompute, frac, pct):
    game = KenoGame(model)  # first: a malformed model is named as such, not as a hash mismatch
    h = math_hash(model)
    if cert.get("math_hash") != h:
        return False, "math hash mismatch: model %s..., certificate %s..." % (h[:16], str(cert.get("math_hash"))[:16]), None
    if cert.get("id") != game.id:
        return False, "certificate is for %r, model is %r" % (cert.get("id"), game.id), None
    model = None
    rtps = cert.get("rtp") or {}
    lo = None
    for s in game.spots:
        per = rtps.get(str(s))
        if not isinstance(per, dict):
            return False, "%d spots: no certified return" % s, None
        for bi, bet in enumerate(game.bets):
            c = per.get(str(bet))
            if c is None:
                return False, "%d spots, bet %d: no certified return" % (s, bet), None
            p, q = frac(c)
            if not meets_floor(p, q):
                return False, "%d spots, bet %d: certified return %s below the %d %% floor (s. 93)" % (
                    s, bet, pct(p, q), RTP_FLOOR_NUM), None
            if recompute:
                n, d = keno_exact.rtp(game.m, s, bi)
                if n * q != p * d:
                    return False, "%d spots, bet %d: recomputed return %d/%d differs from certified %s" % (
                        s, bet, n, d, c), None
            if lo is None or p * lo[1] < lo[0] * q:
                lo = (p, q)
    # the most one game pays at each bet: the largest over the spot counts the player may choose
    game.max_award = None
    for s in game.spots:
        per, why = maxima(cert, game.bets, str(s))
        if why:
            return False, "%d spots: %s" % (s, why), None
        if per is None:
            game.max_award = None
            break
        if game.max_award is None:
            game.max_award = per
        else:
            for i in range(len(per)):
                if per[i] is None or (game.max_award[i] is not None and per[i] > game.max_award[i]):
                    game.max_award[i] = per[i]
    return True, "ok: %s, %d spot counts x %d bet levels, lowest return %s" % (
        game.id, len(game.spots), len(game.bets), pct(lo[0], lo[1])), game
