"""tools.certify --jurisdiction: a game is checked against the profile it is offered under
(docs/reference/vlt-rules.md: S-13.1, r. 7, s. 6-7; L-6, r. 3, s. 4; L-6, r. 13, s. 1) and refused
with the broken rule named. Figures come from the shipped model files."""
from __future__ import annotations

import pytest

from tools.certify.__main__ import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    rc = main(list(args))
    return rc, capsys.readouterr().err


def test_a_game_inside_every_vlt_limit_is_certified(capsys: pytest.CaptureFixture[str]) -> None:
    # sept-royal-87: bets 1-3 credits (75 c at most), best pay 1500 credits ($375), return 87.98 %
    rc, err = _run(capsys, "games/models/sept-royal-87.json", "--jurisdiction", "vlt")
    assert rc == 0 and "REFUSED" not in err


def test_bet_and_prize_over_the_limits_are_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    # aurore-93 at 25 c: bet 100 credits is $25.00; five WILD at bet 100 (12500) doubled in free spins
    rc, err = _run(capsys, "games/models/aurore-93.json", "--jurisdiction", "vlt")
    assert rc == 1
    assert "REFUSED: vlt maximum bet: $25.00 above $2.50" in err
    assert "REFUSED: vlt maximum prize: $6250.00 above $1000.00" in err


def test_prize_alone_over_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # trefle-90 at 10 c: bet 25 credits is $2.50 (allowed); best pay 1500 x multiplier 3 = 4500 credits, $450;
    # at 25 c: bet $6.25 and prize $1125.00, both refused
    rc, err = _run(capsys, "games/models/trefle-90.json", "--jurisdiction", "vlt", "--denom", "10")
    assert rc == 0, err
    rc, err = _run(capsys, "games/models/trefle-90.json", "--jurisdiction", "vlt")
    assert rc == 1 and "vlt maximum prize: $1125.00 above $1000.00" in err and "vlt maximum bet: $6.25" in err
    assert _run(capsys, "games/models/trefle-90.json")[0] == 0  # the casino takes it


def test_credit_value_over_the_limit_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc, err = _run(capsys, "games/models/sept-royal-87.json", "--jurisdiction", "vlt", "--denom", "26")
    assert rc == 1 and "REFUSED: vlt maximum credit value: $0.26 above $0.25" in err
    assert _run(capsys, "games/models/sept-royal-87.json", "--jurisdiction", "vlt", "--denom", "25")[0] == 0


def test_a_return_under_83_percent_is_refused_under_vlt(capsys: pytest.CaptureFixture[str]) -> None:
    # tests/fixtures/games/sub83.json: a model built to return under 83 % (test_certify_* uses it too)
    rc, err = _run(capsys, "tests/fixtures/games/sub83.json", "--jurisdiction", "vlt")
    assert rc == 1 and "vlt minimum return" in err and "L-6, r. 13, s. 1" in err


def test_keno_and_poker_are_held_to_the_same_limits(capsys: pytest.CaptureFixture[str]) -> None:
    # keno-classique-92 at 25 c: bet 25 credits is $6.25; a solid 10 pays 50000 credits a 5-credit
    # coin, 250000 credits at five coins ($62,500)
    rc, err = _run(capsys, "games/models/keno-classique-92.json", "--jurisdiction", "vlt")
    assert rc == 1
    assert "REFUSED: vlt maximum bet: $6.25 above $2.50" in err
    assert "REFUSED: vlt maximum prize: $62500.00 above $1000.00" in err
    # jacks-98 at 25 c: bet 5 credits ($1.25); its royal flush pays 4000 credits at five coins,
    # $1,000.00 exactly: inside the limit. At 26 c the same royal is over it
    rc, err = _run(capsys, "games/models/jacks-98.json", "--jurisdiction", "vlt")
    assert rc == 0 and "REFUSED" not in err, err
    rc, err = _run(capsys, "games/models/jacks-98.json", "--jurisdiction", "vlt", "--denom", "26")
    assert rc == 1 and "REFUSED: vlt maximum prize: $1040.00 above $1000.00" in err, err
