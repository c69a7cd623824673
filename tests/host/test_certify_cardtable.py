"""`python -m tools.certify` on the card-poker table games (tools/certify/cardtable.py): the
shipped certificates written again byte for byte, a tampered model or certificate named, every
wager under the 83 % floor (s. 93) refused by its name, wherever it is (the certifier finds which:
nothing here lists them for it), the vlt profile's bet and prize limits counting the whole round,
and a malformed model named in one line with exit status 2.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.model_json import read

ROOT = Path(__file__).resolve().parents[2]
FAST = ["three-card-96", "let-it-ride-98", "war-97", "red-dog-97"]  # Caribbean Stud: its own module


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.certify", *args], cwd=ROOT, capture_output=True, text=True)


def _write(tmp: Path, name: str, m: dict) -> str:
    p = tmp / name
    p.write_text(json.dumps(m), encoding="utf-8")
    return str(p)


def test_shipped_certificates_written_again_byte_for_byte(tmp_path: Path) -> None:
    models = [str(ROOT / "games" / "models" / (n + ".json")) for n in FAST]
    r = _cli(*models, "--write-cert", str(tmp_path))
    assert r.returncode == 0, r.stderr
    for n in FAST:
        assert (tmp_path / (n + ".json")).read_bytes() == (ROOT / "games" / "certs" / (n + ".json")).read_bytes(), n
    r = _cli("--check-certs", "games/certs", *models)
    assert r.returncode == 0 and r.stdout.count("matches its certificate") == 4, r.stderr


def test_tampered_model_and_certificate_named(tmp_path: Path) -> None:
    m = read("games/models/red-dog-97.json")
    m["wagers"]["wager"]["pays"]["spread_1"] = 6
    r = _cli("--check-certs", "games/certs", _write(tmp_path, "red-dog-97.json", m))
    assert r.returncode == 1
    assert "CERTIFICATE MISMATCH" in r.stderr and "math_hash" in r.stderr and "rtp: wager wager, bet 5" in r.stderr
    cert = json.loads((ROOT / "games" / "certs" / "war-97.json").read_text())
    cert["max_award"]["2"] = 7
    (tmp_path / "war-97.json").write_text(json.dumps(cert))
    r = _cli("--check-certs", str(tmp_path), "games/models/war-97.json")
    assert r.returncode == 1 and "max_award, bet 2: certificate 7, exact 8" in r.stderr, r.stderr


def test_every_wager_under_the_floor_refused_by_name(tmp_path: Path) -> None:
    # the by-law's own side wagers: Let It Ride's $1 bonus (s. 67.9) and War's tie (s. 67.40)
    lir = read("games/models/let-it-ride-98.json")
    lir["wagers"]["bonus"] = {"name": {"fr": "Mise supplémentaire", "en": "Bonus"}, "section": "s. 67.9",
                              "pays": {"royal_flush": 20000, "straight_flush": 2000, "four_of_a_kind": 200,
                                       "full_house": 100, "flush": 50, "straight": 25}}
    war = read("games/models/war-97.json")
    war["wagers"]["tie"] = {"name": {"fr": "Égalité", "en": "Tie"}, "pays": 10, "section": "s. 67.40"}
    # and a pair or plus table cut below the floor, beside an ante that passes
    tcp = read("games/models/three-card-96.json")
    tcp["wagers"]["pair_plus"]["pays"] = {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 3}
    out = tmp_path / "certs"
    r = _cli(_write(tmp_path, "lir.json", lir), _write(tmp_path, "war.json", war), _write(tmp_path, "tcp.json", tcp),
             "--write-cert", str(out))
    assert r.returncode == 1
    refused = [x for x in r.stderr.splitlines() if "REFUSED" in x]
    assert any("lir.json: REFUSED: wager bonus (Bonus, s. 67.9), bet 1: return 98443/216580 = 45.4534 %" in x
               for x in refused), r.stderr
    assert any("war.json: REFUSED: wager tie (Tie, s. 67.40), bet 2: return" in x and "81.3505 %" in x
               for x in refused)
    assert any("tcp.json: REFUSED: wager pair_plus (Pair or plus, s. 67.32), bet 3: return" in x for x in refused)
    assert not any("wager ride" in x or "wager ante" in x or "wager wager" in x for x in refused)
    assert not out.exists()  # nothing written for a refused model


def test_vlt_counts_the_whole_round(tmp_path: Path) -> None:
    # $2.50 a round: 3 Card Poker at 3 credits of 25 cents puts 9 credits at risk (ante, play, pair
    # or plus): it passes; at 4 credits, 12 credits: refused naming the bet and the round's risk
    assert _cli("games/models/three-card-96.json", "--jurisdiction", "vlt").returncode == 0
    m = read("games/models/three-card-96.json")
    m["bets"] = [1, 2, 3, 4]
    r = _cli(_write(tmp_path, "tcp.json", m), "--jurisdiction", "vlt")
    assert r.returncode == 1
    assert "REFUSED: bet 4: one round puts at risk 12 credits: vlt maximum bet: $3.00 above $2.50" in r.stderr, r.stderr
    assert _cli(_write(tmp_path, "tcp.json", m)).returncode == 0  # the casino has no such limit
    # $1,000 a round: Let It Ride's royal flush on three wagers of 2 credits pays 6,006 credits
    m = read("games/models/let-it-ride-98.json")
    m["bets"] = [1, 2]
    r = _cli(_write(tmp_path, "lir.json", m), "--jurisdiction", "vlt")
    assert r.returncode == 1 and "vlt maximum prize: $1501.50 above $1000.00 (bet 2: one game" in r.stderr, r.stderr


def test_malformed_model_named_in_one_line(tmp_path: Path) -> None:
    m = read("games/models/war-97.json")
    m["wagers"]["war"]["pays"] = {"win": 1, "draw": 2}
    r = _cli(_write(tmp_path, "war.json", m))
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        '%s: INVALID MODEL: wagers.war.pays: unknown hand "draw" (win, tie)' % (tmp_path / "war.json")]


def test_json_report(tmp_path: Path) -> None:
    r = _cli("games/models/war-97.json", "--json")
    rep = json.loads(r.stdout)
    assert rep["id"] == "war-97" and rep["certificate"]["max_risk"] == {"2": 4}
    w = rep["wagers"]["wager"]["optimal"]
    assert w["rtp"] == "969885/993023" and abs(w["house_edge_float"] - 0.023301) < 1e-6
    assert sum(o["count"] for o in w["outcomes"]) == w["rounds"]


def test_every_card_tables_risk_is_its_certificates_whole_round() -> None:
    # CardTable.risk (the credits PLAY asks for and the maximum bet counts, firmware/play_cards.py)
    # against the certifier's max_risk (tools/certify/cardtable.py: every wager of the round at one
    # level, an independent reckoning), every model at every level; by hand for the three whose
    # decisions add more than the stake: Boston 1 ante + 2 first (s. 67.56) + 2 second (s. 67.58) + 1
    # Bonus = 6 at bet 1; Crazy Four 1 ante + 1 Super Bonus (s. 67.79) + 3 play (s. 67.81) + 1 Queens Up
    # = 6; 3-5-7 three wagers of 2, none added (s. 67.45, 67.47) = 6. Boston's and Crazy Four's risk
    # left out their decisions' wagers (4 and 3), so PLAY took a round whose second bet or 3 x play
    # the credits could not cover.
    from games.cardtable_games import FORMATS
    from sim.replay import load_game

    by_hand = {"boston-93": {"1": 6}, "crazy-four-92": {"1": 6}, "three-five-seven-94": {"2": 6}}
    for p in sorted((ROOT / "games" / "models").glob("*.json")):
        if json.loads(p.read_text())["format"] not in FORMATS:
            continue
        cert = json.loads((ROOT / "games" / "certs" / p.name).read_text())
        game = load_game(str(p))
        risk = {str(b): game.risk({w: b for w in game.m.stakes}) for b in game.bets}
        assert risk == cert["max_risk"], (p.stem, risk, cert["max_risk"])
        assert risk == by_hand.get(p.stem, risk), p.stem
        by_hand.pop(p.stem, None)
    assert not by_hand  # each checked
