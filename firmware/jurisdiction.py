# Jurisdiction profiles of the cabinet configuration (minimal stand-in: h5 owns the full module).
# "casino": S-13.1, r. 3 (coins or tokens in, hopper and hand pay out). "vlt": S-13.1, r. 7 and
# L-6, r. 3 (redemption coupons out, one printed automatically at $1,000).
PROFILES = {
    "casino": {"payout": "hopper", "auto_coupon_cents": 0},
    "vlt": {"max_bet_cents": 250, "max_prize_cents": 100000, "max_credit_cents": 25,
            "auto_coupon_cents": 100000, "payout": "coupon", "bills": True},
}


def profile(name):
    """The profile named by config.JURISDICTION; a name not listed is refused, never guessed."""
    if name not in PROFILES:
        raise ValueError("no jurisdiction profile %r (%s)" % (name, ", ".join(sorted(PROFILES))))
    return PROFILES[name]
