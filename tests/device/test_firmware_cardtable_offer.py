# A card-poker table game offered to this firmware (issue 26): the boot check certifies it, but the
# cabinet does not play table games until issue 26's cabinet integration, so power-up disables it by
# name (a game-off event, firmware/startup.py playable: the one mechanism for every table game) instead
# of raising: before, firmware/startup.py load_games read game.m.progressive, which a card-table model
# did not have, and the AttributeError went up through the boot (a restart at every power-up). A
# card-poker table game is a card game (its engine's kind): a VLT may offer it (S-13.1, r. 7, s. 3).
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
        out = load_games(("three-card-96", "sept-royal-87"), "games/models", "games/certs", ledger, cfg, lines.append)
        (t, t_ok, t_why, t_game), (s, s_ok, _, s_game) = out
        assert t == "three-card-96" and not t_ok and t_game is None
        assert "table game: this cabinet has no play flow for it yet" in t_why, t_why
        assert "game kind" not in t_why, t_why
        assert ledger.events == [("game-off", "three-card-96: " + t_why)]
        assert s_ok and s_game is not None  # the reel game beside it is offered as before
        assert lines[0].startswith("game three-card-96: DISABLED: table game: this cabinet has no play flow")
        out = t_game = s_game = None
