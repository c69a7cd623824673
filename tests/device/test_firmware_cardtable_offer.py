# A card table game offered to this firmware (issue 26) that the cabinet does not play yet (blackjack;
# the eight card-poker table games play: firmware/play_cards.py, test_a_played_card_table_game_is_offered
# below): the boot check certifies it, and power-up disables it by name (a game-off event,
# firmware/startup.py playable: the one mechanism for every table game) instead of raising: before,
# firmware/startup.py load_games read game.m.progressive, which a card-table model did not have, and
# the AttributeError went up through the boot (a restart at every power-up). A card-poker table game is
# a card game (its engine's kind): a VLT may offer it (S-13.1, r. 7, s. 3), within the vlt limits: each
# shipped one's certificate risks at most 6 credits ($1.50 at 25 cents, under $2.50) and pays at most
# 1,286 ($321.50, under $1,000: 3-5-7's royal flush in the player's three and the dealer's first two,
# 2 x 501 on the 5-card wager, s. 67.49, with 2 x 41 on the 3-card straight flush, s. 67.48, and 2 x 101
# on the 7-card royal, s. 67.50), so all eight are offered under both profiles.
# mp-heap: 512K
from firmware.config import Config
from firmware.startup import load_games


class _Ledger:
    st = {}

    def __init__(self):
        self.events = []

    def event(self, code, text=""):
        self.events.append((code, text))


def test_a_card_table_game_is_disabled_by_name_not_raised():
    for cfg in (Config(), Config({"JURISDICTION": "vlt"})):  # the default profile, and a VLT's
        ledger = _Ledger()
        lines = []
        out = load_games(("blackjack-1d-94", "sept-royal-87"), "games/models", "games/certs", ledger, cfg, lines.append)
        (t, t_ok, t_why, t_game), (s, s_ok, _, s_game) = out
        assert t == "blackjack-1d-94" and not t_ok and t_game is None
        assert "table game: this cabinet has no play flow for it yet" in t_why, t_why
        assert "game kind" not in t_why, t_why
        assert ledger.events == [("game-off", "blackjack-1d-94: " + t_why)]
        assert s_ok and s_game is not None  # the reel game beside it is offered as before
        assert lines[0].startswith("game blackjack-1d-94: DISABLED: table game: this cabinet has no play flow")
        out = t_game = s_game = None


def test_a_played_card_table_game_is_offered_under_both_profiles():
    for cfg in (Config(), Config({"JURISDICTION": "vlt"})):
        ledger = _Ledger()
        ids = ("three-card-96", "let-it-ride-98", "war-97", "red-dog-97", "caribbean-94", "three-five-seven-94",
               "boston-93", "crazy-four-92")
        out = load_games(ids, "games/models", "games/certs", ledger, cfg, lambda line: None)
        assert [(gid, ok) for gid, ok, _, _ in out] == [(gid, True) for gid in ids], out
        assert ledger.events == []
        out = None
