# Jurisdiction profiles: the rules a cabinet is certified under, as data, and pure checks that name
# the rule a game, a wager or a note would break. config.JURISDICTION picks the profile.
#   casino  S-13.1, r. 3 (casino by-law): tokens or coins in, hopper and hand pay out; no bet, prize
#           or credit-value limit beyond the configuration's own.
#   vlt     Québec video-lottery terminal: S-13.1, r. 7 (s. 4 Canadian money, redemption coupon;
#           s. 6 wager <= $2.50, prize <= $1,000; s. 7 credit <= $0.25), L-6, r. 3 (s. 4 the same
#           limits, s. 6 automatic coupon at $1,000), L-6, r. 13 (s. 1 return >= 83 %); no play
#           without the central system's link (L-6, r. 3, s. 2 lists it among a terminal's parts):
#           link_required, firmware/sas/machine.py; the central system keeps the terminal's time:
#           host_clock, SAS long poll 7F (firmware/sas/control.py), where the board's clock can be set.
# tickets_in: a coupon (ticket) may be redeemed for credits through the SAS system (long polls
# 70/71, firmware/sas/ticket_in.py) where the cabinet has a ticket reader (config.TICKET_IN); never
# under vlt: a Québec VLT pays by coupon and takes none in (S-13.1, r. 7, s. 4: bills and coins in).
# Money in cents, integers only. None: no limit under that profile.
# Coupons: claim_s, how long a coupon may be claimed after its issue, printed on it (S-13.1, r. 7,
# s. 14: 24 hours; None: no deadline printed); reprint, whether an attendant may print a DUPLICATE of
# a coupon issued (never under vlt: the Québec operator's practice is that a coupon printed is never
# printed again; an interrupted one is still completed under its own number).
#
# The return floor of both profiles is games/floor.py's 83 %, which the boot check of every game
# already enforces against its certificate (tests check that the profiles agree with it).
PROFILES = {
    "casino": {"max_bet_cents": None, "max_prize_cents": None, "max_credit_cents": None,
               "auto_coupon_cents": None, "payout": "hopper", "bills": False, "return_floor": (83, 100),
               "claim_s": None, "reprint": True, "link_required": False, "host_clock": False, "kinds": None,
               "tickets_in": True},
    "vlt": {"max_bet_cents": 250, "max_prize_cents": 100000, "max_credit_cents": 25,
            "auto_coupon_cents": 100000, "payout": "coupon", "bills": True, "return_floor": (83, 100),
            "claim_s": 86400, "reprint": False, "link_required": True, "host_clock": True,
            "kinds": ("cards", "reels", "keno", "bingo")},  # no "tickets_in": a VLT takes no coupon in
}

# the rules, as a refusal names them: (profile key, name, source)
MAX_BET = ("max_bet_cents", "maximum bet", "L-6, r. 3, s. 4; S-13.1, r. 7, s. 6")
MAX_PRIZE = ("max_prize_cents", "maximum prize", "L-6, r. 3, s. 4; S-13.1, r. 7, s. 6")
MAX_CREDIT = ("max_credit_cents", "maximum credit value", "S-13.1, r. 7, s. 7")
RETURN_FLOOR = ("return_floor", "minimum return", "L-6, r. 13, s. 1; S-13.1, r. 3, s. 93")
# the kinds of game a profile offers (None: every kind). Each engine names its own (games/: ReelGame
# "reels", KenoGame "keno", PokerGame and BaccaratGame "cards", RouletteGame "roulette", CrapsGame and
# SicBoGame "dice", WheelGame "wheel"); a VLT's are card games, reel games, keno and bingo
GAME_KIND = ("kinds", "game kind", "S-13.1, r. 7, s. 3")


def profile(name):
    """The profile called name; ValueError naming the known ones otherwise."""
    p = PROFILES.get(name) if isinstance(name, str) else None
    if p is None:
        raise ValueError("no jurisdiction profile %s (casino, vlt)" % (name if isinstance(name, str) else "of that type"))
    return p


def pays_by_coupon(name):
    """A coupon cabinet: under profile `name` only a redemption coupon pays (vlt: S-13.1, r. 7, s. 4;
    L-6, r. 3, s. 7): no hopper is driven, no win locks for a hand pay, a cash-out prints a coupon.
    The one way the firmware asks it."""
    return PROFILES[name]["payout"] == "coupon"


def dollars(cents):
    return "$%d.%02d" % (cents // 100, cents % 100)


def _over(name, rule, what, cents):
    """The refusal naming the rule when cents is above the profile's limit, else None."""
    limit = PROFILES[name][rule[0]]
    if limit is None or cents <= limit:
        return None
    # the rule first: an event record keeps 76 characters
    return "%s %s: %s above %s (%s; %s)" % (name, rule[1], dollars(cents), dollars(limit), what, rule[2])


def is_refusal(name, why):
    """True when why is one of _over's refusals under profile name (they name the profile first)."""
    return why.startswith(name + " ")


def check_kind(name, kind):
    """None, or why a game of that kind (its engine's `kind`) may not be offered under the profile."""
    kinds = PROFILES[name][GAME_KIND[0]]
    if kinds is None or kind in kinds:
        return None
    return "%s %s: %s not offered (%s: %s)" % (name, GAME_KIND[1], kind, ", ".join(kinds), GAME_KIND[2])


def check_credit(name, denom_cents):
    """None, or why a credit of denom_cents breaks the profile's credit value rule."""
    return _over(name, MAX_CREDIT, "a credit", denom_cents)


def check_wager(name, denom_cents, bet):
    """None, or why a wager of bet credits breaks the profile's maximum bet."""
    return _over(name, MAX_BET, "bet %d x %d cents" % (bet, denom_cents), bet * denom_cents)


def check_return(name, num, den):
    """None, or why a return of num/den is below the profile's floor."""
    fn, fd = PROFILES[name]["return_floor"]
    if den > 0 and num * fd >= fn * den:
        return None
    x = num * 100000 // den if den > 0 else 0
    return "%s %s: return %d.%03d %% below %d %% (%s)" % (
        name, RETURN_FLOOR[1], x // 1000, x % 1000, fn * 100 // fd, RETURN_FLOOR[2])


def check_prize(name, denom_cents, credits, what="one game"):
    """None, or why a pay of `credits` breaks the profile's maximum prize (the settlement's guard)."""
    return _over(name, MAX_PRIZE, "%s %d x %d cents" % (what, credits, denom_cents), credits * denom_cents)


def check_maxima(name, denom_cents, bets, maxima):
    """None, or why the most one game can pay breaks the profile's maximum prize. The limit is on one
    game: every line, scatter, the whole free-spin series and the progressive together (issue 22.1).
    maxima: the certified most one game pays at each bet level (a list in the order of bets, None
    where nothing bounds it), or None when the certificate gives none. The largest is named."""
    if PROFILES[name][MAX_PRIZE[0]] is None:
        return None
    if maxima is None:
        return "%s %s: no certified maximum one-game pay (recertify; %s)" % (name, MAX_PRIZE[1], MAX_PRIZE[2])
    worst = -1
    for i in range(len(bets)):
        if maxima[i] is None:
            return "%s %s: unbounded (bet %d: nothing bounds one game's pay; %s)" % (
                name, MAX_PRIZE[1], bets[i], MAX_PRIZE[2])
        if worst < 0 or maxima[i] > maxima[worst]:
            worst = i
    if worst < 0:
        return None
    return check_prize(name, denom_cents, maxima[worst], "bet %d: one game" % bets[worst])


def check_progressive(name, denom_cents, prog):
    """None, or why a progressive (games/model.py Model.progressive) breaks the maximum prize: under
    a prize limit it needs a ceiling, and the ceiling alone must be inside the limit (what the rest
    of the game pays with it is in the certified maximum, check_maxima)."""
    if prog is None or PROFILES[name][MAX_PRIZE[0]] is None:
        return None
    if prog.get("ceiling") is None:
        return "%s %s: progressive %s has no ceiling (%s)" % (name, MAX_PRIZE[1], prog["pay"], MAX_PRIZE[2])
    return check_prize(name, denom_cents, prog["ceiling"], "progressive ceiling")


def check_game(name, denom_cents, bets, maxima, prog=None, risks=None):
    """Every rule of the profile the game breaks (its bet levels, the most one game puts at risk and
    pays, its progressive) at a credit of denom_cents: [] when it may be offered. risks: the
    certified most one round puts at risk at each bet level (a blackjack's doubles and splits, a
    card-table game's raises; a table game's, per wager), None when that is the bet itself. The
    return is checked by check_return."""
    out = []
    most = max(risks) if risks else max(bets)
    for why in (check_credit(name, denom_cents), check_wager(name, denom_cents, most),
                check_progressive(name, denom_cents, prog), check_maxima(name, denom_cents, bets, maxima)):
        if why:
            out.append(why)
    return out


def credit_cap_cents(name, credit_limit, denom_cents):
    """The most the credit meter may hold after money in: config.CREDIT_LIMIT, and below the
    profile's automatic coupon (a note that would pass it is returned from escrow)."""
    cap = credit_limit * denom_cents
    auto = PROFILES[name]["auto_coupon_cents"]
    if auto is not None and auto < cap:
        cap = auto
    return cap
