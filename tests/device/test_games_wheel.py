# Wheel of fortune (issue 26; by-law s. 117-122), on both runtimes: a spin maps rng.below's result onto
# a segment, a wager wins when the pin stops on its symbol (s. 119) at the model's payout; the shipped
# wheel's returns counted from its segments by hand; the model's layout refused by name (s. 117: 9 to
# 60 equal parts); the Big Six wheel (the Wizard of Odds' layout) is refused at boot, naming its wager.
import json

from devtest import raises, rmtree, tmpdir

from games.certificate import check
from games.limits import ModelError
from games.model import read
from games.table_outcome import LOSE, WIN
from games.wheel import WheelGame
from rng.crypto.canon import math_hash

FIX = "tests/fixtures/games/"


class Script:
    def __init__(self, values):
        self.values = list(values)

    def randbits(self, k):
        return self.values.pop(0)


def test_a_spin_by_hand():
    raw = read("games/models/roue-fortune-85.json")
    g = WheelGame(raw)
    segs = raw["segments"]
    i = segs.index("jeton")
    o = g.play(Script([i]), {"jeton": 2, "1": 5})  # 54 segments: 6 bits, values 54-63 drawn again
    assert o.draws == [i] and o.window == {"segment": i, "symbol": "jeton"}
    assert {r[0]: (r[2], r[3]) for r in o.results} == {"jeton": (WIN, 2 * 48), "1": (LOSE, 0)}  # 47 to 1
    assert g.play(Script([60, 63, i]), {"jeton": 1}).draws == [i]
    j = segs.index("11")
    assert g.evaluate({"11": 10}, [j]).award == 120


def test_the_shipped_wheel_returns_by_hand():
    # 54 segments: 1 (23), 2 (16), 5 (8), 11 (4), 23 (2), jeton (1); a symbol on k segments paying x to 1
    # returns k (x + 1) / 54: 46/54 for the 1, 48/54 for every other
    raw = read("games/models/roue-fortune-85.json")
    counts = {}
    for s in raw["segments"]:
        counts[s] = counts.get(s, 0) + 1
    assert counts == {"1": 23, "2": 16, "5": 8, "11": 4, "23": 2, "jeton": 1}
    with open("games/certs/roue-fortune-85.json") as f:
        cert = json.load(f)
    assert cert["rtp"]["1"] == "23/27" and all(cert["rtp"][s] == "8/9" for s in ("2", "5", "11", "23", "jeton"))
    g = WheelGame(raw)
    for wid in g.m.ids:  # and the engine pays it: every segment through evaluate()
        back = sum(g.evaluate({wid: 5}, [k]).award for k in range(54))
        assert back * 27 == (23 if wid == "1" else 24) * 54 * 5, (wid, back)


def test_the_layout_is_refused_by_name():
    def refused(change, want):
        raw = read("games/models/roue-fortune-85.json")
        change(raw)
        with raises(ModelError) as e:
            WheelGame(raw)
        assert want in str(e.value), (want, str(e.value))

    refused(lambda m: m.update(segments=m["segments"][:8]),
            "segments: the symbol of each of the wheel's 9 to 60 equal parts (s. 117)")
    refused(lambda m: m.update(segments=m["segments"] * 2), "9 to 60 equal parts")
    refused(lambda m: m.update(segments=m["segments"][:3] + ["7"] + m["segments"][4:]),
            'segments[3]: "7" is not a wager of the model')
    refused(lambda m: m.update(segments=[s for s in m["segments"] if s != "jeton"]),
            'wagers "jeton": no segment of the wheel shows it')
    refused(lambda m: m["wagers"]["2"].update(section="s. 72"), 'section "s. 72", a wheel\'s is "s. 117-120"')
    refused(lambda m: m["wagers"]["2"].update(pays=[2, 0]),
            'wagers "2": pays: a payout is [n, d] (n to d), positive integers')
    refused(lambda m: m["wagers"]["2"].update(pays="2 to 1"), "a payout is [n, d]")
    g = WheelGame(read("games/models/roue-fortune-85.json"))
    with raises(ValueError) as e:
        g.evaluate({"7": 1}, [0])
    assert 'wager "7" not offered' in str(e.value)
    for draws in ([54], [-1], [0, 1]):
        with raises(ValueError):
            g.evaluate({"1": 1}, draws)


def test_the_boot_check_refuses_the_big_six_by_name():
    ok, reason, game = check("games/models/roue-fortune-85.json", "games/certs/roue-fortune-85.json")
    assert ok and reason == "ok: roue-fortune-85, 6 wagers, lowest return 85.185 % (1)", reason
    assert game.kind == "wheel" and game.max_award == [48, 96, 240, 480, 1200]
    # the Big Six (the Wizard of Odds' 54 segments: $1 24, $2 15, $5 7, $10 4, $20 2, joker 1, logo 1):
    # its exact returns by hand, k (x + 1) / 54; the first under 83 % in id order is the 10's, 44/54
    raw = read(FIX + "big_six.json")
    cert = {"id": "big-six", "math_hash": math_hash(raw),
            "rtp": {"1": "48/54", "2": "45/54", "5": "42/54", "10": "44/54", "20": "42/54", "joker": "41/54",
                    "logo": "41/54"}}
    d = tmpdir("wheel")
    try:
        path = d + "/c.json"
        with open(path, "w") as f:
            json.dump(cert, f)
        ok, reason, game = check(FIX + "big_six.json", path)
        assert not ok and reason == "10, bet 1: certified return 81.481 % below the 83 % floor (s. 93)", reason
    finally:
        rmtree(d)
