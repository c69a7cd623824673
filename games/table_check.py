# Boot check of a table game against its certificate (s. 93; issue 26), the table side of
# games/certificate.py check(), which reads the model and hands a table-game dict here:
# 1. the game is built (its family's loader: a malformed model is named as such);
# 2. the canonical math hash of the model equals the certificate's, and the id;
# 3. every wager the model offers, at every one of its bet levels, has a certified return >= 83 %
#    (games/floor.py): a wager under it is refused by name, as s. 93 holds each wager type offered;
# 4. where a round has few results (roulette, craps, sic bo, wheel: RECOMPUTED), the device recomputes
#    each wager's return with integers through the engine's own settlement (games/table_exact.py) and
#    it must equal the certified fraction. Baccarat's is an enumeration of 416^6 shoe orders (the host's,
#    tools/certify/baccarat.py): the hash ties the certified figures to this very model, as for poker;
# 5. max_award and max_risk (the most one wager returns / puts at risk, per wager and bet level) are
#    read into game.max_award / game.max_risk, one entry per level of game.bets (the largest over the
#    wagers offering that level), for the firmware's jurisdiction checks (firmware/jurisdiction.py).
# Returns (ok, reason, game); raises only MemoryError (games/certificate.py collects and tries once
# more). Memory: the model is read, built and hashed, and dropped before the certificate is read
# (the peak is the larger of the two with the game beside it, not their sum).
import gc

from games import table_exact
from games.floor import RTP_FLOOR_NUM, meets_floor
from games.model_json import read
from rng.crypto.canon import math_hash

FORMATS = ("jeton-roulette/1", "jeton-craps/1", "jeton-sicbo/1", "jeton-wheel/1", "jeton-baccarat/1")
RECOMPUTED = ("jeton-roulette/1", "jeton-craps/1", "jeton-sicbo/1", "jeton-wheel/1")


def build(model, consume=False):
    """The engine of a table-game model dict, by its format (ValueError for another format); consume:
    its wagers lose their names and bet levels as the engine takes them (games/table_model.py)."""
    fmt = model.get("format") if isinstance(model, dict) else None
    if fmt == "jeton-roulette/1":
        from games.roulette import RouletteGame as G
    elif fmt == "jeton-craps/1":
        from games.craps import CrapsGame as G
    elif fmt == "jeton-sicbo/1":
        from games.sicbo import SicBoGame as G
    elif fmt == "jeton-wheel/1":
        from games.wheel import WheelGame as G
    elif fmt == "jeton-baccarat/1":
        from games.baccarat import BaccaratGame as G
    else:
        raise ValueError("not a table game: format %r" % (fmt,))
    return G(model, consume)


def check(model_path, cert_path, recompute, frac, pct):
    """(ok, reason, game) of a table-game model and its certificate; raises only MemoryError."""
    try:
        model = read(model_path)
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 missing or unreadable file, bad JSON
        return False, "unreadable model or certificate: %s" % (e,), None
    try:
        # hashed first: the engine takes the model's wagers' names and bet levels as it compiles them
        # (the peak of a craps-83 check 46 KB -> 36 KB); a fault of the hash (a character beyond the
        # BMP) is said after the engine's, so that a malformed model is still named as such
        try:
            h, fault = math_hash(model), None
        except ValueError as e:
            h, fault = None, e
        game = build(model, True)
        if fault is not None:
            raise fault
        fmt = model.get("format")
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 a malformed model disables the game, never crashes the boot
        return False, "invalid model: %s" % (e,), None
    model = None  # the game keeps what it shows; the model goes before the certificate comes
    gc.collect()
    try:
        cert = read(cert_path)  # the strict reader: the fractions its arrays repeat are shared
    except MemoryError:
        raise
    except Exception as e:  # noqa
        return False, "unreadable model or certificate: %s" % (e,), None
    if not isinstance(cert, dict):
        return False, "unreadable certificate: not an object", None
    try:
        return check_cert(game, h, fmt, cert, recompute, frac, pct)
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 a malformed certificate disables the game, never crashes the boot
        return False, "invalid certificate: %s" % (e,), None


def check_cert(game, h, fmt, cert, recompute, frac, pct):
    if cert.get("math_hash") != h:
        return False, "math hash mismatch: model %s..., certificate %s..." % (h[:16], str(cert.get("math_hash"))[:16]), None
    if cert.get("id") != game.id:
        return False, "certificate is for %r, model is %r" % (cert.get("id"), game.id), None
    lo = None
    for wid in game.m.ids:
        bets = game.m.bets_of(wid)
        rtps = per_level(cert, "rtp", wid, len(bets))
        if rtps is None:
            return False, "%s: no certified return" % wid, None
        for i in range(len(bets)):
            p, q = frac(rtps[i])
            if not meets_floor(p, q):
                return False, "%s, bet %d: certified return %s below the %d %% floor (s. 93)" % (
                    wid, bets[i], pct(p, q), RTP_FLOOR_NUM), None
            if recompute and fmt in RECOMPUTED:
                n, d = table_exact.rtp(game, wid, bets[i])
                if n * q != p * d:
                    return False, "%s, bet %d: recomputed return %s differs from the certified %s" % (
                        wid, bets[i], pct(n, d), pct(p, q)), None
            if lo is None or p * lo[1] < lo[0] * q:
                lo = (p, q, wid)
    for key in ("max_award", "max_risk"):
        per, why = levels(cert, key, game)
        if why:
            return False, why, None
        setattr(game, key, per)
    return True, "ok: %s, %d wagers, lowest return %s (%s)" % (game.id, len(game.m.ids), pct(lo[0], lo[1]), lo[2]), game


def per_level(cert, key, wid, n):
    """cert[key][wid] as a list of n values, one per bet level of the wager: a list of n, or one value
    that holds at every level (a return that no rounding changes); None when it is neither."""
    table = cert.get(key)
    v = table.get(wid) if isinstance(table, dict) else None
    if isinstance(v, list):
        return v if len(v) == n else None
    if isinstance(v, str):
        return [v] * n
    return None


def levels(cert, key, game):
    """(list, None): the certificate's cert[key][wager] (whole credits per bet level of the wager)
    folded into one entry per level of game.bets, the largest over the wagers offering it; (None,
    None) when it gives none; (None, reason) when what it gives is malformed or misses a wager."""
    if cert.get(key) is None:
        return None, None
    out = [0] * len(game.bets)
    for wid in game.m.ids:
        bets = game.m.bets_of(wid)
        per = per_level(cert, key, wid, len(bets))
        if per is None:
            return None, "certificate: %s: no %s per bet level" % (wid, key)
        for i in range(len(bets)):
            v = per[i]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                return None, "certificate: %s, bet %d: no %s in whole credits" % (wid, bets[i], key)
            j = game.bets.index(bets[i])
            if v > out[j]:
                out[j] = v
    return out, None
