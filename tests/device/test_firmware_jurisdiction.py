# Jurisdiction profiles (firmware/jurisdiction.py): the limits of a Québec video-lottery terminal as
# docs/reference/vlt-rules.md summarises them (S-13.1, r. 7, s. 6-7; L-6, r. 3, s. 4 and 6; L-6,
# r. 13, s. 1), each rule tested on both sides of its limit, and the boot check that disables a
# game breaking one (firmware/startup.py load_games).
# mp-heap: 448K  (compiling firmware/startup.py from source: 384K passed before the games' model reader and
# limits, and failed after; 400K passes)
from firmware import config, jurisdiction
from firmware.startup import load_games
from games.floor import RTP_FLOOR_DEN, RTP_FLOOR_NUM
from games.model import Model, read


def test_the_profiles_carry_the_keys_the_coupon_and_screen_helpers_read():
    vlt = jurisdiction.PROFILES["vlt"]
    # vlt-rules.md: s. 6 $2.50 and $1,000, s. 7 $0.25, L-6 r. 3 s. 6 coupon at $1,000, r. 7 s. 4 coupon
    assert vlt["max_bet_cents"] == 250 and vlt["max_prize_cents"] == 100000 and vlt["max_credit_cents"] == 25
    assert vlt["auto_coupon_cents"] == 100000 and vlt["payout"] == "coupon" and vlt["bills"] is True
    casino = jurisdiction.PROFILES["casino"]
    assert casino["auto_coupon_cents"] is None and casino["payout"] == "hopper" and casino["bills"] is False
    assert config.JURISDICTION == "casino"  # today's behaviour stays the default


def test_the_return_floor_of_every_profile_is_the_one_the_boot_check_enforces():
    for name in jurisdiction.PROFILES:
        assert jurisdiction.PROFILES[name]["return_floor"] == (RTP_FLOOR_NUM, RTP_FLOOR_DEN) == (83, 100)


def test_maximum_bet_both_sides():
    assert jurisdiction.check_wager("vlt", 25, 10) is None  # 10 x 25 c = $2.50: at the limit
    why = jurisdiction.check_wager("vlt", 25, 11)  # $2.75
    assert why.startswith("vlt maximum bet: $2.75 above $2.50"), why
    assert "L-6, r. 3, s. 4" in why
    assert jurisdiction.check_wager("vlt", 1, 250) is None and jurisdiction.check_wager("vlt", 1, 251)
    assert jurisdiction.check_wager("casino", 25, 1000) is None


def test_maximum_prize_both_sides():
    assert jurisdiction.check_game("vlt", 25, [1, 2, 3], 4000) == []  # 4000 x 25 c = $1,000
    why = jurisdiction.check_game("vlt", 25, [1, 2, 3], 4001)
    assert len(why) == 1 and why[0].startswith("vlt maximum prize: $1000.25 above $1000.00"), why
    assert jurisdiction.check_game("casino", 25, [1, 2, 3], 10 ** 6) == []


def test_maximum_credit_value_both_sides():
    assert jurisdiction.check_credit("vlt", 25) is None
    why = jurisdiction.check_credit("vlt", 26)
    assert why.startswith("vlt maximum credit value: $0.26 above $0.25") and "S-13.1, r. 7, s. 7" in why
    assert jurisdiction.check_game("vlt", 26, [1], 1)[0] == why
    assert jurisdiction.check_credit("casino", 100) is None


def test_minimum_return_both_sides():
    assert jurisdiction.check_return("vlt", 83, 100) is None
    assert jurisdiction.check_return("vlt", 8299, 10000).startswith("vlt minimum return: return 82.990 % below 83 %")
    assert jurisdiction.check_return("casino", 8299, 10000)  # the casino's floor too (s. 93)


def test_every_broken_rule_is_named_and_fits_an_event_record():
    why = jurisdiction.check_game("vlt", 30, [100], 10 ** 6)
    assert [w.split(":")[0] for w in why] == ["vlt maximum credit value", "vlt maximum bet", "vlt maximum prize"]
    for w in why:
        assert len(w.split(" (")[0]) <= 76  # the rule and the figures survive the event log's cut


def test_an_unknown_profile_is_refused_by_name():
    try:
        jurisdiction.profile("vlt2")
    except ValueError as e:
        assert "vlt2" in str(e)
    else:
        raise AssertionError("an unknown profile was taken")


def test_largest_prize_of_shipped_models():
    # figures read off the model files: sept-royal-87's best pay is "3 SEVEN" 1500 credits at bet 3;
    # aurore-93's five WILD pay 2500 a coin: 5 coins a line at bet 100 (20 lines) is 12500 credits,
    # and its free spins double it (multiplier 2)
    assert jurisdiction.largest_prize(Model(read("games/models/sept-royal-87.json"))) == 1500
    assert jurisdiction.largest_prize(Model(read("games/models/aurore-93.json"))) == 25000
    # keno-classique-92's 10 of 10 pays 50000 credits a coin (its "pays" table, a coin of "unit" 5
    # credits): at bet 25, five coins, 250000 credits; a keno model is refused under vlt by it
    from games.keno_model import KenoModel

    keno = KenoModel(read("games/models/keno-classique-92.json"))
    assert jurisdiction.largest_prize(keno) == 250000
    assert any("prize" in w for w in jurisdiction.check_game("vlt", 25, keno.bets, jurisdiction.largest_prize(keno)))
    # jacks-98's royal flush pays 4000 credits at 5 coins (its "awards"): the largest prize
    from games.poker_model import PokerModel

    assert jurisdiction.largest_prize(PokerModel(read("games/models/jacks-98.json"))) == 4000


class _Ledger:
    def __init__(self):
        self.st = {}
        self.events = []

    def event(self, code, text=""):
        self.events.append((code, text))


def test_boot_disables_a_game_that_breaks_the_vlt_limits_and_names_the_rule():
    was = config.JURISDICTION
    ledger = _Ledger()
    lines = []
    try:
        config.JURISDICTION = "vlt"
        out = load_games(("trefle-85", "sept-royal-87"), "games/models", "games/certs", ledger, lines.append)
    finally:
        config.JURISDICTION = was
    (t, t_ok, t_why, t_game), (s, s_ok, _, s_game) = out
    assert t == "trefle-85" and not t_ok and t_game is None
    # trefle-85 bets up to 25 credits: $6.25 at 25 cents
    assert t_why.startswith("vlt maximum bet: $6.25 above $2.50"), t_why
    assert ledger.events[0][0] == "game-off" and "vlt maximum bet" in ledger.events[0][1]
    assert s == "sept-royal-87" and s_ok and s_game is not None
    ledger = _Ledger()
    out = load_games(("trefle-85",), "games/models", "games/certs", ledger, lines.append)
    assert out[0][1] and not ledger.events  # the casino profile offers it


def test_the_setting_is_checked_like_the_others():
    from firmware import settings

    probs = settings.check(settings._Merged(config, {"JURISDICTION": "vlt2"}))
    assert probs == ['JURISDICTION must be one of casino, vlt, not "vlt2"'], probs
    probs = settings.check(settings._Merged(config, {"JURISDICTION": "vlt", "DENOM_CENTS": 50,
                                                     "COINS": {"CA100T": 100}}))
    assert probs == ["DENOM_CENTS: vlt maximum credit value: $0.50 above $0.25 (a credit; S-13.1, r. 7, s. 7)"], probs
    assert settings.check(settings._Merged(config, {"JURISDICTION": "vlt"})) == []
    assert settings.check(settings._Merged(config, {"JURISDICTION": "casino", "DENOM_CENTS": 50})) == []
