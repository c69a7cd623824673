# Jurisdiction profiles (firmware/jurisdiction.py): the limits of a Québec video-lottery terminal as
# docs/reference/vlt-rules.md summarises them (S-13.1, r. 7, s. 6-7; L-6, r. 3, s. 4 and 6; L-6,
# r. 13, s. 1), each rule tested on both sides of its limit, and the boot check that disables a
# game breaking one (firmware/startup.py load_games).
# mp-heap: 704K  (the table games' boot checks after the rest: craps-83 found no room at 512K once the cabinet came
# from its parts, whose tests hold a Config and a cabinet's modules more)
import json
import os

from devtest import rmtree, tmpdir

from firmware import config, jurisdiction
from firmware.config import Config
from firmware.startup import load_games
from games.floor import RTP_FLOOR_DEN, RTP_FLOOR_NUM

VLT = Config({"JURISDICTION": "vlt"})  # the defaults under the vlt profile


def test_the_profiles_carry_the_keys_the_coupon_and_screen_helpers_read():
    vlt = jurisdiction.PROFILES["vlt"]
    # vlt-rules.md: s. 6 $2.50 and $1,000, s. 7 $0.25, L-6 r. 3 s. 6 coupon at $1,000, r. 7 s. 4 coupon
    assert vlt["max_bet_cents"] == 250 and vlt["max_prize_cents"] == 100000 and vlt["max_credit_cents"] == 25
    assert vlt["auto_coupon_cents"] == 100000 and vlt["payout"] == "coupon" and vlt["bills"] is True
    casino = jurisdiction.PROFILES["casino"]
    assert casino["auto_coupon_cents"] is None and casino["payout"] == "hopper" and casino["bills"] is False
    assert config.JURISDICTION == "casino"  # today's behaviour stays the default


def test_a_coupon_cabinet_is_asked_one_way():
    # vlt-rules.md: S-13.1, r. 7, s. 4 (a redemption coupon), L-6, r. 3, s. 7 (nothing else pays)
    assert jurisdiction.pays_by_coupon("vlt") and not jurisdiction.pays_by_coupon("casino")


def test_money_out_under_an_unknown_profile_is_the_config_tilt_and_never_a_crash():
    # the settings check refuses such a jurisdiction: were one to reach the boot all the same, it is
    # named (the config tilt, which keeps the hopper still: a hand pay) and the boot goes on
    from fakes_cabinet import Board
    from fakes_firmware import RamNvram

    from firmware.hopper_out import HopperOut
    from firmware.screen import Screen
    from firmware.startup import open_money_out

    class Books:
        st = None  # no books to trust: no hopper either

    found = []
    out = open_money_out(Board(RamNvram(1024)), None, Books(), Config({"JURISDICTION": "vlt2"}), None, Screen(), found,
                         lambda line: None)
    assert type(out) is HopperOut and out.hopper is None
    assert found == [("config", "no jurisdiction profile vlt2 (casino, vlt)")]


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
    # the most one game pays at each bet level (the certificate's max_award), the largest named
    assert jurisdiction.check_game("vlt", 25, [1, 2, 3], [200, 400, 4000]) == []  # 4000 x 25 c = $1,000
    why = jurisdiction.check_game("vlt", 25, [1, 2, 3], [200, 4001, 1500])
    assert len(why) == 1 and why[0].startswith("vlt maximum prize: $1000.25 above $1000.00 (bet 2: one game 4001"), why
    assert jurisdiction.check_game("casino", 25, [1, 2, 3], [10 ** 6, None, None]) == []
    assert jurisdiction.check_prize("vlt", 25, 4000) is None
    assert jurisdiction.check_prize("vlt", 25, 4001).startswith("vlt maximum prize: $1000.25 above $1000.00")
    assert jurisdiction.check_prize("casino", 25, 10 ** 9) is None


def test_an_unbounded_or_uncertified_maximum_is_refused_under_a_prize_limit():
    why = jurisdiction.check_game("vlt", 25, [1, 2, 3], [200, 400, None])
    assert why == ["vlt maximum prize: unbounded (bet 3: nothing bounds one game's pay; L-6, r. 3, s. 4; "
                   "S-13.1, r. 7, s. 6)"], why
    why = jurisdiction.check_game("vlt", 25, [1, 2, 3], None)
    assert len(why) == 1 and why[0].startswith("vlt maximum prize: no certified maximum one-game pay"), why
    assert jurisdiction.check_game("casino", 25, [1, 2, 3], None) == []


def test_a_progressive_under_a_prize_limit_needs_a_ceiling_inside_it():
    prog = {"pay": "3 SEVEN", "bet": 3, "num": 1, "den": 1000, "reset": 1500, "ceiling": None}
    assert jurisdiction.check_progressive("vlt", 25, prog).startswith("vlt maximum prize: progressive 3 SEVEN has no ceiling")
    assert jurisdiction.check_progressive("casino", 25, prog) is None
    prog["ceiling"] = 4000
    assert jurisdiction.check_progressive("vlt", 25, prog) is None
    prog["ceiling"] = 4001
    assert jurisdiction.check_progressive("vlt", 25, prog).startswith(
        "vlt maximum prize: $1000.25 above $1000.00 (progressive ceiling 4001 x 25 cents")
    assert jurisdiction.check_progressive("vlt", 20, prog) is None  # $800.20 at 20 cents a credit


def test_maximum_credit_value_both_sides():
    assert jurisdiction.check_credit("vlt", 25) is None
    why = jurisdiction.check_credit("vlt", 26)
    assert why.startswith("vlt maximum credit value: $0.26 above $0.25") and "S-13.1, r. 7, s. 7" in why
    assert jurisdiction.check_game("vlt", 26, [1], [1])[0] == why
    assert jurisdiction.check_credit("casino", 100) is None


def test_minimum_return_both_sides():
    assert jurisdiction.check_return("vlt", 83, 100) is None
    assert jurisdiction.check_return("vlt", 8299, 10000).startswith("vlt minimum return: return 82.990 % below 83 %")
    assert jurisdiction.check_return("casino", 8299, 10000)  # the casino's floor too (s. 93)


def test_every_broken_rule_is_named_and_fits_an_event_record():
    prog = {"pay": "3 SEVEN", "bet": 100, "ceiling": 10 ** 6}
    why = jurisdiction.check_game("vlt", 30, [100], [10 ** 6], prog)
    assert [w.split(":")[0] for w in why] == ["vlt maximum credit value", "vlt maximum bet", "vlt maximum prize",
                                              "vlt maximum prize"]
    for w in why:
        assert len(w.split(" (")[0]) <= 76  # the rule and the figures survive the event log's cut


def test_an_unknown_profile_is_refused_by_name():
    try:
        jurisdiction.profile("vlt2")
    except ValueError as e:
        assert "vlt2" in str(e)
    else:
        raise AssertionError("an unknown profile was taken")


def test_the_boot_check_reads_the_certified_maxima_of_every_kind_of_game():
    # games/certs/*.json max_award (tools/certify/maxpay.py): sept-royal-87 at bet 3 pays at most its
    # progressive's ceiling, 4000 credits; keno-classique-92: the best of its spot counts, a solid 10's
    # 50000 credits a coin (five coins at bet 25); jacks-98: the royal flush, 250 a coin and 4000 at
    # five coins (the published 9/6 table: 250/500/750/1000/4000)
    from games.certificate import check

    for gid, want in (("sept-royal-87", [200, 400, 4000]), ("keno-classique-92", [50000, 100000, 150000, 200000, 250000]),
                      ("jacks-98", [250, 500, 750, 1000, 4000])):
        ok, why, game = check("games/models/%s.json" % gid, "games/certs/%s.json" % gid)
        assert ok, why
        assert game.max_award == want, (gid, game.max_award)


class _Ledger:
    def __init__(self):
        self.st = {}
        self.events = []

    def event(self, code, text=""):
        self.events.append((code, text))


def test_boot_disables_a_game_that_breaks_the_vlt_limits_and_names_the_rule():
    ledger = _Ledger()
    lines = []
    out = load_games(("trefle-85", "sept-royal-87"), "games/models", "games/certs", ledger, VLT, lines.append)
    (t, t_ok, t_why, t_game), (s, s_ok, _, s_game) = out
    assert t == "trefle-85" and not t_ok and t_game is None
    # trefle-85 bets up to 25 credits: $6.25 at 25 cents
    assert t_why.startswith("vlt maximum bet: $6.25 above $2.50"), t_why
    assert ledger.events[0][0] == "game-off" and "vlt maximum bet" in ledger.events[0][1]
    assert s == "sept-royal-87" and s_ok and s_game is not None
    ledger = _Ledger()
    out = load_games(("trefle-85",), "games/models", "games/certs", ledger, Config(), lines.append)
    assert out[0][1] and not ledger.events  # the casino profile offers it


def test_a_refusal_by_the_limits_is_told_apart_from_a_certificate_failure():
    """firmware/startup.py: with every offered game refused by the profile's limits the tilt is
    "limits" (the player's screen says why), with any other failure it is "game"."""
    out = load_games(("trefle-85",), "games/models", "games/certs", _Ledger(), VLT, lambda line: None)
    assert jurisdiction.is_refusal("vlt", out[0][2]), out
    d = tmpdir("juris")
    try:
        with open("games/models/sept-royal-87.json") as f:
            raw = json.load(f)
        raw["pays"][1]["pays"]["3"][0] += 1  # BAR3's pay at bet 1: the math hash differs
        with open(d + "/sept-royal-87.json", "w") as f:
            json.dump(raw, f)
        out = load_games(("sept-royal-87",), d, "games/certs", _Ledger(), VLT, lambda line: None)
    finally:
        rmtree(d)
    assert not out[0][1] and not jurisdiction.is_refusal("vlt", out[0][2]), out


def _boot(juris, model, cert, gid="sept-royal-87"):
    """load_games under juris for one game whose model and certificate are the dicts given (written
    to a scratch folder): (ok, reason, events)."""
    import json

    d = tmpdir("juris")
    for sub, data in (("models", model), ("certs", cert)):
        os.mkdir(d + "/" + sub)
        with open("%s/%s/%s.json" % (d, sub, gid), "w") as f:
            json.dump(data, f)
    ledger = _Ledger()
    try:
        [(_, ok, why, _)] = load_games((gid,), d + "/models", d + "/certs", ledger, Config({"JURISDICTION": juris}),
                                       lambda line: None)
    finally:
        rmtree(d)
    return ok, why, ledger.events


def _shipped(gid="sept-royal-87"):
    import json

    with open("games/models/%s.json" % gid) as f:
        model = json.load(f)
    with open("games/certs/%s.json" % gid) as f:
        cert = json.load(f)
    return model, cert


def test_the_issue_sept_royal_88_with_an_uncapped_progressive_is_refused_under_vlt_by_name():
    # issue 22.1: sept-royal-87 as it shipped (rate 1/100, no ceiling) passed the vlt boot check on
    # its pay-table entries (1500 credits) while its progressive passes $1,000 after 83,367 games at
    # bet 3. Its certificate as tools.certify writes it: the same returns, max_award null at bet 3
    from rng.crypto.canon import math_hash

    model, cert = _shipped()
    model["progressive"] = {"pay": "3 SEVEN", "bet": 3, "rate": "1/100"}
    cert["math_hash"] = math_hash(model)
    cert["max_award"]["3"] = None
    ok, why, events = _boot("vlt", model, cert)
    assert not ok and why == ("vlt maximum prize: progressive 3 SEVEN has no ceiling (L-6, r. 3, s. 4; S-13.1, r. 7, "
                              "s. 6); vlt maximum prize: unbounded (bet 3: nothing bounds one game's pay; L-6, r. 3, "
                              "s. 4; S-13.1, r. 7, s. 6)"), why
    assert events[0][0] == "game-off" and "progressive 3 SEVEN has no ceiling" in events[0][1]
    assert _boot("casino", model, cert)[0]  # a casino's hand pay has no such limit


def test_a_certified_maximum_over_the_limit_is_refused_at_boot():
    # a game whose one-game total passes $1,000 though no pay-table entry does (lines, scatter and
    # free spins together): the certificate says so and the boot check holds it to the limit
    model, cert = _shipped()
    cert["max_award"]["2"] = 4001
    ok, why, _ = _boot("vlt", model, cert)
    assert not ok and why.startswith("vlt maximum prize: $1000.25 above $1000.00 (bet 2: one game 4001 x 25 cents"), why
    cert["max_award"]["2"] = 4000
    assert _boot("vlt", model, cert)[0]
    assert _boot("casino", model, dict(cert, max_award={"1": 200, "2": 10 ** 6, "3": None}))[0]


def test_a_certificate_without_maxima_is_refused_only_under_a_prize_limit():
    model, cert = _shipped()
    del cert["max_award"]
    ok, why, _ = _boot("vlt", model, cert)
    assert not ok and why.startswith("vlt maximum prize: no certified maximum one-game pay (recertify"), why
    assert _boot("casino", model, cert)[0]


def test_a_malformed_maximum_disables_the_game_under_every_profile():
    model, cert = _shipped()
    for bad in ("4000", -1, True, 4000.0, [4000]):
        cert["max_award"]["3"] = bad
        for juris in ("casino", "vlt"):
            ok, why, _ = _boot(juris, model, cert)
            assert not ok and why == "certificate: bet 3: no maximum one-game pay in whole credits", (bad, why)
    cert["max_award"] = {"1": 200, "2": 400}
    assert _boot("casino", model, cert)[1] == "certificate: bet 3: no maximum one-game pay in whole credits"
    cert["max_award"] = [200, 400, 4000]
    assert _boot("casino", model, cert)[1] == "certificate: max_award must be an object"


def test_a_keno_certificate_gives_a_maximum_for_every_spot_count():
    # keno-classique-92: the most one game pays at a bet is the best of the spot counts a player may
    # choose; one spot count without its maxima, or a malformed one, disables the game
    model, cert = _shipped("keno-classique-92")
    ok, why, _ = _boot("casino", model, cert, "keno-classique-92")
    assert ok, why
    del cert["max_award"]["3"]
    ok, why, _ = _boot("casino", model, cert, "keno-classique-92")
    assert not ok and why == "3 spots: certificate: no maximum one-game pay", why
    cert["max_award"]["3"] = {"5": 232, "10": 464, "15": 696, "20": 928, "25": -1}
    assert _boot("casino", model, cert, "keno-classique-92")[1] == \
        "3 spots: certificate: bet 25: no maximum one-game pay in whole credits"


def test_the_setting_is_checked_like_the_others():
    from firmware import settings

    probs = settings.check(Config({"JURISDICTION": "vlt2"}))
    assert probs == ['JURISDICTION must be one of casino, vlt, not "vlt2"'], probs
    probs = settings.check(Config({"JURISDICTION": "vlt", "DENOM_CENTS": 50,
                                                     "COINS": {"CA100T": 100}}))
    assert probs == ["DENOM_CENTS: vlt maximum credit value: $0.50 above $0.25 (a credit; S-13.1, r. 7, s. 7)"], probs
    assert settings.check(Config({"JURISDICTION": "vlt"})) == []
    assert settings.check(Config({"JURISDICTION": "casino", "DENOM_CENTS": 50})) == []


def test_a_vlt_offers_card_games_reel_games_keno_and_bingo_only():
    # S-13.1, r. 7, s. 3: the kinds of game a video lottery system's terminal offers; the casino
    # profile offers every kind (issue 26: roulette, dice and the wheel are refused under vlt by name)
    for kind in ("cards", "reels", "keno", "bingo"):
        assert jurisdiction.check_kind("vlt", kind) is None
    for kind in ("roulette", "dice", "wheel", None):
        assert jurisdiction.check_kind("vlt", kind) == \
            "vlt game kind: %s not offered (cards, reels, keno, bingo: S-13.1, r. 7, s. 3)" % kind
        assert jurisdiction.check_kind("casino", kind) is None
    # at boot, a certified table game is disabled under vlt by its kind (the cabinet plays it: issue 26)
    model, cert = _shipped("roulette-simple-97")
    ok, why, events = _boot("vlt", model, cert, "roulette-simple-97")
    assert not ok and why.endswith("; vlt game kind: roulette not offered (cards, reels, keno, bingo: S-13.1, r. 7, s. 3)")
    assert why.startswith("vlt maximum bet: $6.25 above $2.50"), why
    model, cert = _shipped("baccarat-mini-85")
    ok, why, events = _boot("vlt", model, cert, "baccarat-mini-85")
    assert ok, why  # a card game: a VLT offers it


def test_only_the_games_the_cabinet_can_play_are_offered():
    # issue 26: the table games without decisions are played (firmware/play_table.py), and the
    # card-poker games whose decisions the cabinet plays (firmware/play_cards.py: all eight); a
    # blackjack is disabled until the cabinet plays its decisions
    from firmware.startup import playable
    from games.certificate import check

    for gid, want in (("sept-royal-87", True), ("keno-classique-92", True), ("jacks-98", True),
                      ("roulette-simple-97", True), ("craps-83", True), ("baccarat-85", True),
                      ("three-card-96", True), ("let-it-ride-98", True), ("boston-93", True),
                      ("crazy-four-92", True), ("three-five-seven-94", True), ("blackjack-1d-94", False)):
        ok, why, game = check("games/models/%s.json" % gid, "games/certs/%s.json" % gid)
        assert ok and playable(game) is want, (gid, why)

    class Other:  # an engine that names no kind: not one the cabinet knows how to play
        bets = [1]

    assert not playable(Other())


def test_the_vlt_maximum_bet_holds_what_a_round_can_put_at_risk_not_its_largest_bet():
    # issue 26: a blackjack round at a bet of 10 credits can put 40 at risk (doubles, splits); under
    # vlt at 25 cents the $2.50 of L-6, r. 3, s. 4 holds the round's most, the certificate's max_risk
    # (before: max(bets), 10 x 25 cents, passed)
    why = jurisdiction.check_game("vlt", 25, [1, 5, 10], [100, 500, 1000], None, [4, 20, 40])
    assert why == ["vlt maximum bet: $10.00 above $2.50 (bet 40 x 25 cents; L-6, r. 3, s. 4; S-13.1, r. 7, s. 6)"], why
    assert jurisdiction.check_game("vlt", 25, [1, 5, 10], [100, 500, 1000], None, [1, 5, 10]) == []
    assert jurisdiction.check_game("vlt", 25, [1, 5, 10], [100, 500, 1000]) == []  # no risk: the bet itself
    # at boot, from the certificate: blackjack-1d-94 at bets 2 and 4 (25 cents: $1.00 at most) whose
    # certificate says a round at 4 can put 11 at risk ($2.75) is refused by the maximum bet
    model, cert = _shipped("blackjack-1d-94")
    cert["max_risk"] = {"2": 5, "4": 11}
    ok, why, events = _boot("vlt", model, cert, "blackjack-1d-94")
    assert not ok and why.startswith("vlt maximum bet: $2.75 above $2.50 (bet 11 x 25 cents"), why
    cert["max_risk"] = {"2": 5, "4": 10}
    ok, why, events = _boot("vlt", model, cert, "blackjack-1d-94")
    assert not ok and "maximum bet" not in why, why  # $2.50: only its missing play flow
