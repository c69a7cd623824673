"""Hypothesis drives the configuration parser and checker (firmware/settings.py) on both runtimes:
every generated settings file gets the same verdict, word for word, from CPython and from the
MicroPython unix port, nothing ever raises, and whatever is accepted is sound money: coins in
whole credits of a Canadian identity, limits that agree."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from hypothesis import example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from firmware import settings
from firmware.config import Config

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"

RUN = """
import json, sys
from firmware import settings
from firmware.config import Config
out = []
for text in json.loads(open(sys.argv[1]).read()):
    over, err = settings.parse(text)
    out.append([err] if err else settings.check(Config(over)))
print(json.dumps(out))
"""

ints = st.one_of(st.integers(-5, 5000), st.integers(-(10 ** 12), 10 ** 12), st.booleans(), st.floats(0, 100),
                 st.text(max_size=4), st.none())
coin_ids = st.one_of(st.sampled_from(["CA100T", "CA200A", "CA025A", "CA005A", "US025A", "CA10T", "ca100t"]),
                     st.text(min_size=0, max_size=7))
values = {
    "DENOM_CENTS": st.one_of(st.sampled_from([1, 5, 25, 30, 100]), ints),
    "CREDIT_LIMIT": ints, "HOPPER_LIMIT": ints, "JACKPOT_LIMIT": ints, "SPIN_MS": ints,
    "ACCEPTOR_POLL_MS": ints, "PIN_TRIES": ints,
    "COINS": st.dictionaries(coin_ids, st.one_of(st.sampled_from([5, 10, 25, 100, 200]), ints), max_size=4),
    "PAYOUT_COIN": st.one_of(st.tuples(coin_ids, st.sampled_from([25, 100, 200])).map(list), ints),
    "GAMES": st.lists(st.sampled_from(["sept-royal-87", "trefle-90", "../x", "", "a" * 40]), max_size=3),
    "MACHINE_ID": st.text(max_size=30), "HOPPER": st.one_of(st.booleans(), ints),
    "UNKNOWN": ints,
}
overrides = st.dictionaries(st.sampled_from(sorted(values)), st.none(), max_size=5).flatmap(
    lambda keys: st.fixed_dictionaries({k: values[k] for k in keys}))
texts = st.one_of(overrides.map(json.dumps), st.text(max_size=40), st.just("[]"), st.just("{}"))


def verdict(text: str) -> list[str]:
    over, err = settings.parse(text)
    return [err] if err else settings.check(Config(over))


def sound(text: str) -> None:
    """What the checker accepts is right to the cent."""
    over, err = settings.parse(text)
    if err or settings.check(Config(over)):
        return
    cfg = Config(over)
    for cid, cents in cfg.COINS.items():
        assert cid.startswith("CA") and cents % cfg.DENOM_CENTS == 0
    assert cfg.HOPPER_LIMIT <= cfg.CREDIT_LIMIT
    assert cfg.PAYOUT_COIN[1] == cfg.COINS[cfg.PAYOUT_COIN[0]]


@hsettings(max_examples=6, deadline=None)
@given(st.lists(texts, min_size=40, max_size=40))
@example(['"\U00010000'] + ['{}'] * 39)  # a character beyond U+FFFF: once reached the device 2 bytes longer
def test_both_runtimes_give_the_same_verdict_and_accept_only_sound_money(tmp_path_factory, batch) -> None:
    host = []
    for text in batch:
        host.append(verdict(text))  # never raises
        sound(text)
    f = tmp_path_factory.mktemp("settings") / "batch.json"
    # as UTF-8, not \u escapes: MicroPython's json decodes an escaped surrogate pair as two 3-byte
    # characters, so a text with a character beyond U+FFFF would reach the device 2 bytes longer
    f.write_text(json.dumps(batch, ensure_ascii=False), encoding="utf-8")
    script = f.parent / "run.py"
    script.write_text(RUN)
    out = subprocess.run([str(MICROPYTHON), "-X", "heapsize=256K", str(script), str(f)], cwd=ROOT,
                         env={"MICROPYPATH": f".frozen:{ROOT}"}, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    device = json.loads(out.stdout.strip().splitlines()[-1])
    for text, h, d in zip(batch, host, device):
        assert h == d, (text, h, d)
