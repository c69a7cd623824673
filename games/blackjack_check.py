# Boot check of a blackjack model against its certificate (jeton-blackjack/1, by-law s. 93):
#   ok, reason, game = games.blackjack_check.check("games/models/x.json", "games/certs/x.json")
# 1. the model is built (games/blackjack_model.py): a malformed one is named as such;
# 2. its canonical math hash (rules, pays, wagers AND the built-in strategy) equals the certificate's;
# 3. every wager the model offers has a certified return at every bet level, optimal and under the
#    built-in strategy, each >= 83 %; a wager below is refused BY NAME;
# 4. the side wagers (insurance, 12-16, sevens, over/under 13; not s. 21.2's progressive, whose five
#    cards the host enumerates) are recomputed here with integers over
#    the shoe (a few hundred products) and must equal the certified fractions: a certificate cannot
#    lie about them. The main wager's exact composition-dependent analysis (some 70,000 shoes) is the
#    host's (tools/certify/blackjack.py); the hash ties its figures to this very model;
# 5. max_award and max_risk (per bet level) are read into game.max_award / game.max_risk for the
#    jurisdiction's prize and bet limits.
# Never raises: a failure is (False, reason, None).
import gc
import json

from games.certificate import NO_MEMORY, _frac, _pct, maxima
from games.floor import RTP_FLOOR_NUM, meets_floor
from games.model import read
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


def _add(acc, p, q):
    # acc = [num, den] += p / q (no gcd: the numbers stay small, a few products of shoe counts)
    acc[0] = acc[0] * q + p * acc[1]
    acc[1] *= q


def side_return(m, k):
    """(num, den): the exact return per credit of side wager k of model m (BlackjackModel)."""
    d = m.decks
    n = 52 * d
    cnt = [4 * d] * 9 + [16 * d]  # values 1..10
    acc = [0, 1]
    pays = m.pays[k]
    if k == "insurance":  # the dealer's second card is a ten, given his ace (s. 25)
        a, b = pays["dealer_blackjack"]
        _add(acc, cnt[9] * (a + b), (n - 1) * b)
        return acc[0], acc[1]
    if k == "sevens":  # s. 21.3: first card, first two, first three (the shoe's next card)
        s = 4 * d
        rows = ((s * (n - s) * (n - 2), "one"), (s * 3 * d * (n - s), "two"), (s * (d - 1) * (n - s), "two_suited"),
                (s * (s - 1) * (s - 2) - s * (d - 1) * (d - 2), "three"), (s * (d - 1) * (d - 2), "three_suited"))
        den = n * (n - 1) * (n - 2)
        for c, key in rows:
            a, b = pays[key]
            _add(acc, c * (a + b), den * b)
        return acc[0], acc[1]
    den = n * (n - 1)
    for x in range(10):  # the first two cards, by value (s. 21.1, 21.4)
        for y in range(10):
            c = cnt[x] * (cnt[y] - (x == y))
            h = x + y + 2
            key = None
            if k == "twelve_sixteen":
                t = h + 10 if (x == 0 or y == 0) and h <= 11 else h
                if 12 <= t <= 16:
                    key = "two_aces_or_eights" if x == y and x in (0, 7) else "total_12_16"
            elif (k == "over_13" and h > 13) or (k == "under_13" and h < 13):
                key = "win"
            if key is not None and c:
                a, b = pays[key]
                _add(acc, c * (a + b), den * b)
    return acc[0], acc[1]


def _check(model_path, cert_path):
    from games.blackjack import BlackjackGame

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
        game = BlackjackGame(model)
        h = math_hash(model)
        model = None
        gc.collect()
        if cert.get("math_hash") != h:
            return False, "math hash mismatch: model %s..., certificate %s..." % (
                h[:16], str(cert.get("math_hash"))[:16]), None
        if cert.get("id") != game.id:
            return False, "certificate is for %r, model is %r" % (cert.get("id"), game.id), None
        m = game.m
        lo = None
        for k in m.pays:
            for key, what in (("rtp", "return"), ("strategy_rtp", "built-in strategy's return")):
                per = (cert.get(key) or {}).get(k)
                if not isinstance(per, dict):
                    return False, "wager %s: no certified %s" % (k, what), None
                for bet in game.bets:
                    s = per.get(str(bet))
                    if s is None:
                        return False, "wager %s bet %d: no certified %s" % (k, bet, what), None
                    p, q = _frac(s)
                    if not meets_floor(p, q):
                        return False, "wager %s bet %d: certified %s %s below the %d %% floor (s. 93)" % (
                            k, bet, what, _pct(p, q), RTP_FLOOR_NUM), None
                    if lo is None or p * lo[1] < lo[0] * q:
                        lo = (p, q)
            if k not in m.mains and k != m.progressive_wager:  # s. 21.2's five cards: the host's enumeration
                n, d = side_return(m, k)
                p, q = _frac(cert["rtp"][k][str(game.bets[0])])
                if n * q != p * d:
                    return False, "wager %s: recomputed return %s differs from the certified %s" % (
                        k, _pct(n, d), _pct(p, q)), None
        game.max_award, why = maxima(cert, game.bets)
        if why:
            return False, why, None
        risk = cert.get("max_risk")
        if not isinstance(risk, dict):
            return False, "certificate: no max_risk (what one round can put at risk)", None
        game.max_risk = []
        for bet in game.bets:
            v = risk.get(str(bet))
            if not isinstance(v, int) or isinstance(v, bool) or v < bet:
                return False, "certificate: bet %d: max_risk is not whole credits of at least the bet" % bet, None
            game.max_risk.append(v)
        return True, "ok: %s, %d wagers, %d bet levels, lowest return %s" % (
            game.id, len(m.pays), len(game.bets), _pct(lo[0], lo[1])), game
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 a malformed model disables the game, never crashes the boot
        return False, "invalid model: %s" % (e,), None
