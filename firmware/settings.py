# The cabinet configuration, checked at power-up (issue 9, fault 13). firmware/config.py holds the
# defaults; an operator's settings file (JSON: {"NAME": value, ...}, on the emulated board
# STATE/settings.json) may override them without a change to the program. Nothing is ever
# truncated or guessed: a value that is not exactly right is named, and the cabinet stays in the
# "config" tilt (no money in, no play; credits already on the meter are paid by hand).
#
#   problems = settings.check(config.Config(overrides), settings.file_exists)   # [] when sound
# and only a sound whole is the configuration the cabinet runs under (firmware/configuration.py).
from firmware import jurisdiction, strictjson

# (name, lower bound, upper bound): the bounds keep every figure inside what the meters (10 digits)
# and the critical-memory records are sized for. Tuples, not dicts: problems are listed in the same
# order on every runtime (MicroPython's dicts keep no insertion order).
_INTS = (
    ("DENOM_CENTS", 1, 100000),
    ("CREDIT_LIMIT", 1, 10 ** 8),
    ("ACCEPTOR_POLL_MS", 10, 500),  # ccTalk acceptors inhibit themselves when not polled for ~1 s
    ("SPIN_MS", 0, 10000),
    ("HOPPER_LIMIT", 0, 10 ** 8),
    ("EM_ON_MS", 20, 1000),  # a meter coil needs ~20 ms to pull in
    ("EM_OFF_MS", 20, 1000),
    ("JACKPOT_LIMIT", 0, 10 ** 9),
    ("PIN_TRIES", 1, 10),
    ("PIN_LOCK_S", 1, 3600),
    ("SESSION_S", 30, 3600),
)
_TEXTS = (("MACHINE_ID", 24), ("VERSION", 16), ("MODELS_DIR", 255), ("CERTS_DIR", 255))  # a path: PATH_MAX-ish
NAMES = tuple(n for n, _, _ in _INTS) + tuple(n for n, _ in _TEXTS) + (
    "COINS", "PAYOUT_COIN", "GAMES", "HOPPER", "PROGRESSIVE_LINK", "JURISDICTION", "SAS_TOURNAMENT",
    "TICKET_IN")
MAX_GAMES = 16
MAX_FILE = 4096  # a settings file is a few hundred bytes: anything larger is not one


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _printable(s):
    for ch in s:
        if not " " < ch <= "~":
            return False
    return True


def _show(v):
    """A value as the problem names it, the same on every runtime (repr() of a float or of a
    non-ASCII text differs between CPython and MicroPython)."""
    if v is None or isinstance(v, bool):
        return {None: "null", True: "true", False: "false"}[v]
    if _is_int(v):
        return "%d" % v
    if isinstance(v, str):
        for ch in v:
            if not " " <= ch <= "~":
                return "a text with other than printable ASCII"
        return '"%s"' % v if len(v) <= 32 else '"%s..."' % v[:32]
    if isinstance(v, float):
        return "a number with a fraction"
    return "a list" if isinstance(v, (list, tuple)) else "an object"


def coin_id(cid):
    """ccTalk coin identity "CCvvvI" (country, value code, issue): the country, or None."""
    if not isinstance(cid, str) or len(cid) != 6 or not cid[:2].isalpha() or not cid[2:5].isdigit():
        return None
    if not _printable(cid[5]):
        return None
    return cid[:2]


def check(cfg, exists=None):
    """Problems with the configuration object cfg (attributes named as in firmware/config.py).
    exists(path) -> bool checks that a listed game's model and certificate are there."""
    out = []
    for name, lo, hi in _INTS:
        v = getattr(cfg, name, None)
        if not _is_int(v) or not lo <= v <= hi:
            out.append("%s must be a whole number from %d to %d, not %s" % (name, lo, hi, _show(v)))
    for name, n in _TEXTS:
        v = getattr(cfg, name, None)
        path = name.endswith("_DIR")  # a folder's name may hold spaces; an identity may not
        if not isinstance(v, str) or not v or len(v) > n or not _printable(v.replace(" ", "_") if path else v):
            out.append("%s must be 1 to %d printable characters, not %s" % (name, n, _show(v)))
    if out:
        return out  # the money checks below need sound figures
    denom = cfg.DENOM_CENTS
    coins = getattr(cfg, "COINS", None)
    if not isinstance(coins, dict) or not coins:
        out.append("COINS must list at least one coin or token by ccTalk identity")
        coins = {}
    for cid in sorted(coins):
        cents = coins[cid]
        if coin_id(cid) != "CA":
            out.append("COINS: %s is not a Canadian coin or a house token identity CAvvvI (s. 4)" % _show(cid))
        elif not _is_int(cents) or cents <= 0 or cents > 10 ** 6:
            out.append("COINS: %s value must be a whole number of cents, not %s" % (cid, _show(cents)))
        elif cents % denom:
            out.append("COINS: %s is worth %d cents, not a whole number of %d-cent credits" % (cid, cents, denom))
    pc = getattr(cfg, "PAYOUT_COIN", None)
    if not isinstance(pc, (tuple, list)) or len(pc) != 2 or pc[0] not in coins or coins[pc[0]] != pc[1]:
        out.append("PAYOUT_COIN must be (identity, cents) of a coin in COINS, not %s" % _show(pc))
    if not isinstance(getattr(cfg, "HOPPER", None), bool):
        out.append("HOPPER must be true or false")
    if cfg.HOPPER_LIMIT > cfg.CREDIT_LIMIT:
        out.append("HOPPER_LIMIT %d above CREDIT_LIMIT %d" % (cfg.HOPPER_LIMIT, cfg.CREDIT_LIMIT))
    link = getattr(cfg, "PROGRESSIVE_LINK", None)
    if link is not None and (not isinstance(link, dict) or not isinstance(link.get("id"), str)
                             or not _is_int(link.get("bet")) or not isinstance(link.get("math_hash"), str)):
        out.append("PROGRESSIVE_LINK must be null or {id, bet, math_hash}")
    elif link is not None and link.get("group") is not None and not (_is_int(link["group"]) and 1 <= link["group"] <= 255):
        out.append("PROGRESSIVE_LINK's group (its SAS progressive group) must be 1-255, not %s" % _show(link["group"]))
    why = sas_tournament(getattr(cfg, "SAS_TOURNAMENT", None))
    if why:
        out.append("SAS_TOURNAMENT " + why)
    juris = getattr(cfg, "JURISDICTION", None)
    if juris not in jurisdiction.PROFILES:
        out.append("JURISDICTION must be one of casino, vlt, not %s" % _show(juris))
    else:
        why = jurisdiction.check_credit(juris, denom)
        if why:
            out.append("DENOM_CENTS: " + why)
        tin = getattr(cfg, "TICKET_IN", False)
        if not isinstance(tin, bool):
            out.append("TICKET_IN must be true or false")
        elif tin and not jurisdiction.PROFILES[juris].get("tickets_in"):
            out.append("TICKET_IN: the %s profile takes no ticket in" % juris)
    games = getattr(cfg, "GAMES", None)
    if not isinstance(games, (tuple, list)) or not games or len(games) > MAX_GAMES:
        out.append("GAMES must list 1 to %d game ids" % MAX_GAMES)
    else:
        for gid in games:
            if not isinstance(gid, str) or not gid or len(gid) > 32 or not _printable(gid) or "/" in gid:
                out.append("GAMES: %s is not a game id" % _show(gid))
            elif exists is not None:
                for d in (cfg.MODELS_DIR, cfg.CERTS_DIR):
                    if not exists("%s/%s.json" % (d, gid)):
                        out.append("GAMES: %s has no %s/%s.json" % (gid, d, gid))
    return out


def sas_tournament(rules):
    """None, or why `rules` (the tournament the central system may start, SAS 8C) is not null nor
    {"fee", "games", "pct"[, "name"]} within the console's own bounds (firmware/tournament.py new)."""
    if rules is None:
        return None
    if not isinstance(rules, dict) or not all(_is_int(rules.get(k)) for k in ("fee", "games", "pct")) \
            or not isinstance(rules.get("name", ""), str) or len(rules) != 3 + ("name" in rules):
        return "must be null or {fee, games, pct[, name]}"
    from firmware import tournament

    try:
        tournament.new(rules["fee"], 1, rules["games"], rules["pct"], "2026-01-01", 1, rules.get("name", ""))
    except tournament.TournamentError as e:
        return str(e)
    return None


def parse(text):
    """Operator overrides from a settings file: {NAME: value}, or (None, problem)."""
    if len(text) > MAX_FILE:
        return None, "settings file larger than %d bytes" % MAX_FILE
    try:
        d = strictjson.loads(text)  # strict, and the same on every runtime (firmware/strictjson.py)
    except ValueError as e:
        return None, "settings file is not JSON: %s" % e
    if not isinstance(d, dict):
        return None, "settings file must be one JSON object"
    for name in d:
        if name not in NAMES:
            return None, "settings file: unknown setting %s" % _show(name)
    if "GAMES" in d and isinstance(d["GAMES"], list):
        d["GAMES"] = tuple(d["GAMES"])
    if "PAYOUT_COIN" in d and isinstance(d["PAYOUT_COIN"], list):
        d["PAYOUT_COIN"] = tuple(d["PAYOUT_COIN"])
    return d, None


def read_file(path):
    """The text of a settings file, or None when there is none."""
    try:
        with open(path) as f:
            return f.read(MAX_FILE + 1)
    except OSError:
        return None


def file_exists(path):
    try:
        with open(path):
            return True
    except OSError:
        return False
