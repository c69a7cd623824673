# Boot check of a shipped game against its certificate (by-law s. 93, issue 4):
#   ok, reason, game = games.certificate.check("games/models/x.json", "games/certs/x.json")
# 0. the model is read (games/model_json.py) and built (games/model.py): a malformed model, or one
#    past a bound of games/limits.py, is refused naming the fault, in bounded time and heap;
# 1. the canonical math hash of the model equals the certificate's (a tampered model fails);
# 2. every bet level's certified return is >= the 83 % floor (games/floor.py);
# 3. the device recomputes the exact return of every bet level with integers (games/exact.py)
#    and it must equal the certified fraction, so a certificate cannot lie about it;
# 4. the most one game can pay at each bet level ("max_award", tools/certify/maxpay.py) is read into
#    game.max_award (a list in the order of game.bets, None where nothing bounds it; None for a
#    certificate without it), which the firmware holds to its jurisdiction's prize limit
#    (firmware/jurisdiction.py check_maxima). The device does not recompute it: the exact maximum
#    of a 20-line window is a joint search over the reels (some 3,000 states of 20 lines for an
#    aurore, more than a board's heap); the signed release manifest authenticates the certificate
#    (firmware/authenticate.py), and every settlement checks the award against the limit again.
# Never raises: a failure is (False, reason, None) for the firmware to log and show.
# Memory: the steps run one after the other and the heap is collected between them (the model is
# read with its names shared, games/model.py read; the recomputation holds one bet level at a
# time, games/exact.py), so the check's peak stays bounded by the largest step, not their sum:
# docs/games.md lists each shipped model's. Out of memory, the check collects and tries once more;
# a second MemoryError disables the game with that reason. It never raises it: the same heap at the
# next boot would fail the same way, and a restart loop would only end in a board reset.
import gc
import json

from games import exact
from games.floor import RTP_FLOOR_NUM, meets_floor
from games.keno_model import FORMAT as KENO
from games.model import FORMAT as REELS1
from games.model import FORMAT2 as REELS2
from games.model import read
from games.reels import ReelGame
from rng.crypto.canon import math_hash

REELS = (REELS1, REELS2)

NO_MEMORY = "boot check needs more memory than this board has free"


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
    # percentage with 3 decimals, integers only (for the console)
    x = p * 100000 // q
    return "%d.%03d %%" % (x // 1000, x % 1000)


def check(model_path, cert_path, recompute=True):
    try:
        return _check(model_path, cert_path, recompute)
    except MemoryError:
        pass  # leave the handler first: its frame still holds what the first try allocated
    gc.collect()
    try:
        return _check(model_path, cert_path, recompute)
    except MemoryError as e:
        return False, "%s (%s)" % (NO_MEMORY, e), None


def maxima(cert, bets, key=None):
    """(list, None): the certificate's most one game pays at each bet (None where unbounded), or
    None when it gives none; (None, reason) when what it gives is malformed. key: keno's spot count."""
    m = cert.get("max_award")
    if m is None:
        return None, None
    if key is not None and isinstance(m, dict):
        m = m.get(key)
        if m is None:
            return None, "certificate: no maximum one-game pay"
    if not isinstance(m, dict):
        return None, "certificate: max_award must be an object"
    out = []
    for bet in bets:
        v = m.get(str(bet), False)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            return None, "certificate: bet %d: no maximum one-game pay in whole credits" % bet
        out.append(v)
    return out, None


def _table(model):
    # a table game's model (games/table_check.py FORMATS), without importing the table code for the others
    fmt = model.get("format") if isinstance(model, dict) else None
    if fmt in REELS or fmt == KENO or fmt == "jeton-poker/1" or fmt == "jeton-blackjack/1":
        return False
    from games.table_check import FORMATS

    return fmt in FORMATS


def _cardtable(model):
    # a card-poker table game's model (games/cardtable_games.py FORMATS), without importing its table of
    # formats for a reel or keno game: imported in the middle of a reel game's check, its few KB left the
    # heap too broken up for the return's recomputation (tests/device/test_games_bootmem.py needed 192K)
    fmt = model.get("format")
    if fmt in REELS or fmt == KENO:
        return False
    from games.cardtable_games import FORMATS

    return fmt in FORMATS


def _check(model_path, cert_path, recompute):
    try:
        model = read(model_path)
        if _table(model):  # a table game (issue 26): games/table_check.py reads both, one after the other
            model = None
            gc.collect()
            from games.table_check import check as table_check

            return table_check(model_path, cert_path, recompute, _frac, _pct)
        with open(cert_path) as f:
            cert = json.load(f)
    except MemoryError:
        raise  # the heap, not the files: check() collects and tries once more
    except Exception as e:  # noqa: BLE001  missing or unreadable file, bad JSON
        return False, "unreadable model or certificate: %s" % (e,), None
    if not isinstance(model, dict):
        return False, "invalid model: model must be an object", None
    if model.get("format") == "jeton-poker/1":  # video poker: games/poker_cert.py
        from games.poker_cert import check as poker_check

        model = cert = None
        gc.collect()
        return poker_check(model_path, cert_path)
    if model.get("format") == "jeton-blackjack/1":  # blackjack: games/blackjack_check.py (issue 26)
        from games.blackjack_check import check as blackjack_check

        model = cert = None
        gc.collect()
        return blackjack_check(model_path, cert_path)
    if _cardtable(model):  # the card-poker table games: games/cardtable_cert.py
        from games.cardtable_cert import check as cardtable_check

        model = cert = None
        gc.collect()
        return cardtable_check(model_path, cert_path)
    if not isinstance(cert, dict):
        return False, "unreadable certificate: not an object", None
    try:
        if model.get("format") == KENO:  # a keno card game: its own tables, same rules (issue 13)
            from games.keno_check import check_model

            return check_model(model, cert, recompute, _frac, _pct)
        # the game first: a malformed model or one past a bound is named as such (games/limits.py),
        # not as a hash mismatch (it has no certificate)
        game = ReelGame(model)
        gc.collect()
        h = math_hash(model)
        model = None  # the game keeps what it needs of it; the strips and pays go before the recomputation
        gc.collect()  # the hash's canonical pieces
        if cert.get("math_hash") != h:
            return False, "math hash mismatch: model %s..., certificate %s..." % (
                h[:16], str(cert.get("math_hash"))[:16]), None
        if cert.get("id") != game.id:
            return False, "certificate is for %r, model is %r" % (cert.get("id"), game.id), None
        rtps = cert.get("rtp")
        if not isinstance(rtps, dict):
            return False, "certificate: no certified returns", None
        for bi, bet in enumerate(game.bets):
            s = rtps.get(str(bet))
            if s is None:
                return False, "bet %d: no certified return" % bet, None
            p, q = _frac(s)
            if not meets_floor(p, q):
                return False, "bet %d: certified return %s below the %d %% floor (s. 93)" % (
                    bet, _pct(p, q), RTP_FLOOR_NUM), None
            if recompute:
                gc.collect()  # what the previous step left: one bet level at a time
                n, d = exact.rtp(game.m, bi)
                if n * q != p * d:  # percentages: a 600-digit fraction is no line for the event log
                    return False, "bet %d: recomputed return %s differs from the certified %s" % (
                        bet, _pct(n, d), _pct(p, q)), None
                if not meets_floor(n, d):
                    return False, "bet %d: return %s below the %d %% floor (s. 93)" % (
                        bet, _pct(n, d), RTP_FLOOR_NUM), None
        lo = None
        for b in game.bets:
            p, q = _frac(rtps[str(b)])
            if lo is None or p * lo[1] < lo[0] * q:
                lo = (p, q)
        game.max_award, why = maxima(cert, game.bets)
        if why:
            return False, why, None
        return True, "ok: %s, %d bet levels, lowest return %s" % (game.id, len(game.bets), _pct(lo[0], lo[1])), game
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001  a malformed model disables the game, never crashes the boot
        return False, "invalid model: %s" % (e,), None
