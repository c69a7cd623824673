# The configuration checked at power-up (issue 9, fault 13): every value exactly right or named,
# never truncated; an operator's settings file applied only as a sound whole. Both runtimes.
from firmware import config, settings
from firmware.config import Config


def problems(**over):
    return settings.check(Config(over))


def test_the_shipped_defaults_are_sound():
    assert settings.check(config, settings.file_exists) == []


def test_a_coin_not_a_whole_number_of_credits_is_named_never_truncated():
    out = problems(COINS={"CA100T": 100, "CA010A": 10})  # 10 cents with 25-cent credits
    assert out == ["COINS: CA010A is worth 10 cents, not a whole number of 25-cent credits"]
    assert problems(DENOM_CENTS=30) and "not a whole number of 30-cent credits" in problems(DENOM_CENTS=30)[0]


def test_only_canadian_coins_or_house_tokens_s4():
    out = problems(COINS={"CA100T": 100, "US025A": 25})
    assert len(out) == 1 and "US025A" in out[0] and "s. 4" in out[0]
    assert problems(COINS={})[0] == "COINS must list at least one coin or token by ccTalk identity"


def test_payout_coin_must_be_an_accepted_coin_at_its_value():
    assert "PAYOUT_COIN" in problems(PAYOUT_COIN=("CA100T", 200))[0]
    assert "PAYOUT_COIN" in problems(PAYOUT_COIN=("CA200T", 200))[0]


def test_limits_must_agree_and_figures_stay_in_bounds():
    assert problems(HOPPER_LIMIT=5000) == ["HOPPER_LIMIT 5000 above CREDIT_LIMIT 4000"]
    for name, bad in (("DENOM_CENTS", 0), ("DENOM_CENTS", 2.5), ("CREDIT_LIMIT", -1), ("SPIN_MS", True),
                      ("ACCEPTOR_POLL_MS", 2000), ("PIN_TRIES", "3"), ("JACKPOT_LIMIT", 10 ** 12)):
        out = problems(**{name: bad})
        assert len(out) == 1 and out[0].startswith(name + " must be a whole number"), (name, out)


def test_games_and_texts():
    assert problems(GAMES=()) == ["GAMES must list 1 to 16 game ids"]
    assert problems(GAMES=("../etc",)) == ['GAMES: "../etc" is not a game id']
    out = settings.check(Config({"GAMES": ("no-such-game",)}), settings.file_exists)
    assert out == ["GAMES: no-such-game has no games/models/no-such-game.json",
                   "GAMES: no-such-game has no games/certs/no-such-game.json"]
    assert "MACHINE_ID" in problems(MACHINE_ID="x" * 25)[0]
    # issue 11: no shared console PIN any more; a settings file cannot bring one back
    assert settings.parse('{"TECH_PIN_SHA256": "00"}')[1] == 'settings file: unknown setting "TECH_PIN_SHA256"'


def test_a_settings_file_is_read_over_the_defaults_which_are_never_written_to():
    over, err = settings.parse('{"GAMES": ["trefle-90", "aurore-88"], "CREDIT_LIMIT": 2000}')
    assert err is None and over["GAMES"] == ("trefle-90", "aurore-88")
    cfg = Config(over)
    assert settings.check(cfg, settings.file_exists) == []
    assert cfg.GAMES == ("trefle-90", "aurore-88") and cfg.CREDIT_LIMIT == 2000 and cfg.DENOM_CENTS == 25
    assert config.GAMES == ("sept-royal-87",) and config.CREDIT_LIMIT == 4000  # the module keeps its defaults
    over, err = settings.parse('{"CREDIT_LIMIT": 3000, "DENOM_CENTS": 30}')
    assert settings.check(Config(over))  # not sound: firmware/configuration.py settles on the defaults then
    assert getattr(Config(), "NO_SUCH_SETTING", None) is None  # a name no setting has is no setting


def test_a_bad_settings_file_is_named():
    assert settings.parse("{not json")[1] == "settings file is not JSON: expected a key at byte 1"
    # MicroPython's own json would take these (a typo silently changing a setting): refused here
    for text in ('{"CREDIT_LIMIT": 1 "HOPPER": true}', '{"CREDIT_LIMIT": 01}', '{"GAMES": ["a",]}', '{"HOPPER"}'):
        assert settings.parse(text)[1].startswith("settings file is not JSON: "), text
    assert settings.parse("[1, 2]")[1] == "settings file must be one JSON object"
    assert settings.parse('{"DENOM": 5}')[1] == 'settings file: unknown setting "DENOM"'
    assert "larger than" in settings.parse(" " * 5000)[1]
