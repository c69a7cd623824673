"""tools.certify --jurisdiction: a game is checked against the profile it is offered under
(docs/reference/vlt-rules.md: S-13.1, r. 7, s. 6-7; L-6, r. 3, s. 4; L-6, r. 13, s. 1) and refused
with the broken rule named. Figures come from the shipped model files."""
from __future__ import annotations

import re

import pytest

from tools.certify.__main__ import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    rc = main(list(args))
    return rc, capsys.readouterr().err


def test_a_game_inside_every_vlt_limit_is_certified(capsys: pytest.CaptureFixture[str]) -> None:
    # sept-royal-87: bets 1-3 credits (75 c at most), one game pays at most its progressive's ceiling,
    # 4000 credits ($1,000.00: at the limit), return 87.98 %
    rc, err = _run(capsys, "games/models/sept-royal-87.json", "--jurisdiction", "vlt")
    assert rc == 0 and "REFUSED" not in err


def test_bet_and_prize_over_the_limits_are_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    # aurore-93 at 25 c: bet 100 credits is $25.00. One game pays far more than five WILD at bet 100
    # (12500) doubled in free spins, the old per-entry rule's $6250.00: 20 lines, the scatter and a
    # series of up to 50 free spins together (the figure: tests/host/test_certify_maxpay.py's method)
    rc, err = _run(capsys, "games/models/aurore-93.json", "--jurisdiction", "vlt")
    assert rc == 1
    assert "REFUSED: vlt maximum bet: $25.00 above $2.50" in err
    m = re.search(r"REFUSED: vlt maximum prize: \$(\d+)\.(\d\d) above \$1000\.00 \(bet 100: one game (\d+) x 25 cents", err)
    assert m, err
    assert int(m.group(3)) * 25 == int(m.group(1)) * 100 + int(m.group(2)) and int(m.group(3)) > 25000


def test_prize_alone_over_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # trefle-90 at 10 c: bet 25 credits is $2.50 (allowed); its best pay is 1500 (x 3 in free spins,
    # 4500, which the old per-entry rule let through at $450), but one game pays up to 107890
    # credits: five lines and the scatter in a window, a whole series of 30 free spins x 3
    # (maxpay_brute.game_max, tests/host/test_certify_maxpay.py): $10789.00 at 10 c
    rc, err = _run(capsys, "games/models/trefle-90.json", "--jurisdiction", "vlt", "--denom", "10")
    assert rc == 1 and "REFUSED: vlt maximum prize: $10789.00 above $1000.00 (bet 25: one game 107890 x 10 cents" in err, err
    rc, err = _run(capsys, "games/models/trefle-90.json", "--jurisdiction", "vlt")
    assert rc == 1 and "vlt maximum prize: $26972.50 above $1000.00" in err and "vlt maximum bet: $6.25" in err
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
