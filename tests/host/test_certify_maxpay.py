"""The most one game can pay (tools/certify/maxpay.py, issue 22.1): every line, the scatter, the whole
free-spin series and the progressive at its ceiling together, per bet level, exact. Checked against
tests/host/maxpay_brute.py (every window of positive weight evaluated from docs/game-format.md's
rules, the feature searched spin by spin: no code shared with games/ or tools/certify), on the
small fixtures, the shipped 3-reel models and variants built here; keno against every draw of a
small keno, video poker against the published pay tables; the certificate and the CLI."""
from __future__ import annotations

import copy
import itertools
import json
import sys
from pathlib import Path

import pytest

from tools.certify.__main__ import main
from tools.certify.core import certify_model
from tools.certify.keno import certify as certify_keno
from tools.certify.maxpay import keno_max

sys.path.insert(0, str(Path(__file__).parent))
from maxpay_brute import game_max as brute  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _load(rel: str) -> dict:
    return json.loads((ROOT / rel).read_text())


def maxima(raw: dict) -> dict[int, int | None]:
    return {b: f.max_award for b, f in certify_model(raw, jobs=1)["bets"].items()}


SMALL = ["tests/fixtures/games/mini5.json", "tests/fixtures/games/mini2.json", "tests/fixtures/games/mini2-plain.json",
         "tests/fixtures/games/easyslot.json", "games/models/skeleton-88.json", "games/models/sept-royal-87.json",
         "games/models/trefle-90.json", "games/models/tricolore-92.json"]


@pytest.mark.parametrize("rel", SMALL, ids=[Path(p).stem for p in SMALL])
def test_every_bet_level_equals_the_brute_force(rel: str) -> None:
    raw = _load(rel)
    got = maxima(raw)
    assert got == {b: brute(raw, b) for b in raw["bets"]}


def _lines_and_scatter() -> dict:
    # 3 reels x 3 rows, one line across the middle; each strip S A S X: the window at stop 1 shows
    # A on the line and six scatters around it
    reel = {"strip": ["S", "A", "S", "X"]}
    return {"format": "jeton-reels/1", "id": "t-ls", "name": {"fr": "t", "en": "t"}, "symbols": ["A", "S", "X"],
            "scatter": "S", "rows": 3, "lines": [[1, 1, 1]], "bets": [1], "reels": [reel, reel, reel],
            "pays": [{"name": "A", "symbols": ["A"], "pays": {"3": 10}}], "scatter_pays": {"3": 5, "6": 100}}


def test_lines_and_scatter_in_one_window_add_up() -> None:
    raw = _lines_and_scatter()
    assert brute(raw, 1) == 110  # 3 A on the line (10) and 6 scatters (100) in the same window
    assert maxima(raw) == {1: 110}  # the per-entry rule said 100: one entry is not one game


@pytest.mark.parametrize("cap,mult", [(3, 2), (5, 2), (9, 3), (14, 1)])
def test_the_whole_free_spin_series_counts(cap: int, mult: int) -> None:
    raw = _load("tests/fixtures/games/mini5.json")
    raw["free_spins"].update(cap=cap, multiplier=mult)
    assert maxima(raw) == {b: brute(raw, b) for b in raw["bets"]}


def test_free_spins_without_retriggers_and_uncapped_ones() -> None:
    raw = _load("tests/fixtures/games/mini5.json")
    del raw["free_spins"]["cap"]
    raw["free_spins"].update(uncapped=True, retrigger={"3": 1})  # fewer than one extra spin a spin on average
    # a spin that retriggers can follow every spin: nothing bounds the series
    assert maxima(raw) == {5: None, 10: None, 25: None} == {b: brute(raw, b) for b in raw["bets"]}
    raw["free_spins"]["retrigger"] = {}
    got = maxima(raw)
    assert got == {b: brute(raw, b) for b in raw["bets"]} and None not in got.values()


def _with_progressive(pay: str, bet: int, ceiling: int | None) -> dict:
    raw = _load("tests/fixtures/games/mini5.json")
    raw["progressive"] = {"pay": pay, "bet": bet, "rate": "1/1000"}
    if ceiling is not None:
        raw["progressive"]["ceiling"] = ceiling
    return raw


@pytest.mark.parametrize("pay", ["5 W", "3 A", "4 A", "5 A", "3 AB"])
def test_a_progressive_is_counted_at_its_ceiling_with_the_rest_of_the_game(pay: str) -> None:
    # five lines, a scatter and free spins: the progressive's window may pay other lines and start a
    # series; "3 A" is won only by a run of exactly three (a fourth A names the win "4 A")
    raw = _with_progressive(pay, 25, 9000)
    got = maxima(raw)
    assert got == {b: brute(raw, b) for b in raw["bets"]}
    assert got[25] >= 9000
    assert got[5] == maxima(_load("tests/fixtures/games/mini5.json"))[5]  # the other bets pay the fixed award


def test_a_progressive_without_a_ceiling_is_unbounded_at_its_bet_only() -> None:
    raw = _with_progressive("5 A", 10, None)
    got = maxima(raw)
    assert got[10] is None and brute(raw, 10) is None
    assert got[5] is not None and got[25] is not None


def test_a_stop_of_weight_zero_is_never_shown() -> None:
    # sept-royal-87 with its reel-1 SEVEN given weight 0: 3 SEVEN can no longer show, so one game
    # pays at most 3 BAR3 (100 / 200 / 300) and the progressive is never won
    raw = _load("games/models/sept-royal-87.json")
    raw["reels"][0]["weights"][0] = 0
    assert maxima(raw) == {1: 100, 2: 200, 3: 300} == {b: brute(raw, b) for b in raw["bets"]}


def _keno_catches(numbers: int, drawn: int, spots: int) -> set[int]:
    # every draw of a small keno, the card being the first `spots` numbers
    card = set(range(spots))
    return {len(card & set(d)) for d in itertools.combinations(range(numbers), drawn)}


@pytest.mark.parametrize("numbers,drawn,spots", [(20, 5, 5), (10, 8, 5), (10, 3, 7), (12, 6, 6)])
def test_keno_pays_at_most_its_best_catch_that_can_happen(numbers: int, drawn: int, spots: int) -> None:
    # (10, 8, 5): eight of ten drawn, five marked: at least three are caught, so a catch-0 or catch-2
    # pay can never be won; (10, 3, 7): at most three caught
    row = [1000 - 100 * h for h in range(spots + 1)]  # the lower the catch, the more it would pay
    assert keno_max(numbers, drawn, row, spots) == max(row[h] for h in _keno_catches(numbers, drawn, spots))


def test_keno_maxima_per_spot_count_and_bet() -> None:
    # tests/fixtures/games/keno_mini.json: 20 numbers, 5 drawn; 5 spots pay 2000 / 4000 / 9000 for 5
    # of 5 at bets 2 / 4 / 6; every catch of a 1-5 spot card can happen there
    raw = _load("tests/fixtures/games/keno_mini.json")
    cert = certify_keno(raw)
    got = {s: {b: f["max_award"] for b, f in sp["bets"].items()} for s, sp in cert["spots"].items()}
    assert got[5] == {2: 2000, 4: 4000, 6: 9000}
    assert got[1] == {2: 7, 4: 14, 6: 21}  # 7 a coin of 2 credits


# Michigan Lottery Club Keno, as its official rules publish the prizes of a $1 wager (lottery.com,
# official_rules.cfm/GameID/MIKENO): spots -> {match: prize}, and the published odds of winning
MI_CLUB_KENO = {10: ({10: 100000, 9: 5000, 8: 500, 7: 50, 6: 10, 5: 2, 0: 5}, 9.05),
                9: ({9: 25000, 8: 2000, 7: 100, 6: 20, 5: 5, 4: 2}, 6.53),
                8: ({8: 10000, 7: 300, 6: 50, 5: 15, 4: 2}, 9.77),
                7: ({7: 2000, 6: 100, 5: 11, 4: 5, 3: 1}, 4.23),
                6: ({6: 1100, 5: 57, 4: 7, 3: 1}, 6.19),
                5: ({5: 410, 4: 18, 3: 2}, 10.34),
                4: ({4: 72, 3: 5, 2: 1}, 3.86)}


def test_keno_maxima_against_a_published_pay_table() -> None:
    # one credit a dollar, bets of 1, 2 and 5 dollars: one game pays at most the top prize of the
    # spot count played, times the dollars bet (a 10-spot's $100,000, not its $5 for no catch)
    raw = {"format": "jeton-keno/1", "id": "mi-club-keno", "name": {"fr": "Club Keno", "en": "Club Keno"},
           "bets": [1, 2, 5], "pays": {str(s): {str(h): v for h, v in t.items()} for s, (t, _) in MI_CLUB_KENO.items()}}
    cert = certify_keno(raw)
    for s, (table, odds) in MI_CLUB_KENO.items():
        f = cert["spots"][s]["bets"]
        assert round(float(1 / f[1]["hit"]), 2) == odds  # the table read as published
        assert {b: f[b]["max_award"] for b in (1, 2, 5)} == {b: max(table.values()) * b for b in (1, 2, 5)}


def test_video_poker_pays_at_most_its_royal_flush_as_published() -> None:
    # Jacks or Better 9/6 (Wizard of Odds, wizardofodds.com/games/video-poker/tables/jacks-or-better/):
    # royal flush 250 for one coin up to four, 4000 for five (800 a coin); no hand pays more
    from tools.certify.poker_report import certify_poker

    rep = certify_poker(_load("games/models/jacks-98.json"))
    assert {b: v["max_award"] for b, v in rep["bets"].items()} == {1: 250, 2: 500, 3: 750, 4: 1000, 5: 4000}


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_the_shipped_sept_royal_88_is_valid_under_vlt_and_the_issue_model_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, err = _cli(capsys, "games/models/sept-royal-87.json", "--jurisdiction", "vlt")
    assert rc == 0 and "REFUSED" not in err and "one game pays at most 4000 credits" in out
    # the model as the issue found it: rate 1/100, no ceiling
    raw = _load("games/models/sept-royal-87.json")
    raw["progressive"] = {"pay": "3 SEVEN", "bet": 3, "rate": "1/100"}
    path = tmp_path / "sept-royal-87.json"
    path.write_text(json.dumps(raw))
    rc, out, err = _cli(capsys, str(path), "--jurisdiction", "vlt")
    assert rc == 1 and "REFUSED: vlt maximum prize: progressive 3 SEVEN has no ceiling" in err, err
    assert "REFUSED: vlt maximum prize: unbounded (bet 3" in err
    assert _cli(capsys, str(path))[0] == 0  # a casino pays it by hand


def test_a_ceiling_its_rate_cannot_fit_under_is_refused_under_every_profile(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 1/100 of bet 3 is 3/100 credit a game; 3 SEVEN comes once in 340,480 games: 10214.4 credits
    # between two wins on average, more than the 2500 from the reset 1500 to a ceiling of 4000
    raw = _load("games/models/sept-royal-87.json")
    raw["progressive"]["rate"] = "1/100"
    path = tmp_path / "m.json"
    path.write_text(json.dumps(raw))
    certs = tmp_path / "certs"
    rc, _, err = _cli(capsys, str(path), "--write-cert", str(certs))
    assert rc == 1 and ("REFUSED: progressive 3 SEVEN: 1/100 of bet 3 adds 10214.4 credits between two wins on "
                        "average (1 in 340480), not less than the 2500 from its reset 1500 to its ceiling 4000") in err
    assert not certs.exists()
    raw["progressive"]["rate"] = "1/409"  # 2497.4 credits between wins: inside
    path.write_text(json.dumps(raw))
    assert _cli(capsys, str(path), "--jurisdiction", "vlt")[0] == 0


def test_the_certificate_carries_the_maxima_and_check_certs_names_a_wrong_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    certs = tmp_path / "certs"
    assert _cli(capsys, "games/models/sept-royal-87.json", "--write-cert", str(certs))[0] == 0
    cert = json.loads((certs / "sept-royal-87.json").read_text())
    assert cert["max_award"] == {"1": 200, "2": 400, "3": 4000}
    assert cert == _load("games/certs/sept-royal-87.json")  # the shipped one is what the tool writes
    for doctored, why in ((dict(cert["max_award"], **{"3": 3999}),
                           "bet 3: maximum one-game pay 4000 credits differs from the certificate's 3999"),
                          (None, "the certificate has no maximum one-game pay (max_award): recertify"),
                          ({"1": 200, "2": 400}, "bet 3: the certificate has no maximum one-game pay")):
        c = copy.deepcopy(cert)
        if doctored is None:
            del c["max_award"]
        else:
            c["max_award"] = doctored
        (certs / "sept-royal-87.json").write_text(json.dumps(c))
        rc, _, err = _cli(capsys, "--check-certs", str(certs), "games/models/sept-royal-87.json")
        assert rc == 1 and why in err, err
