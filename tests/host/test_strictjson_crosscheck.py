"""firmware/strictjson.py against CPython's json module (an independent implementation), with
NaN/Infinity refused as RFC 8259 does: for any generated value its JSON text parses to the same
value, and for any generated text either both accept it with equal values or both refuse it."""
from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st
from json_reference import strict_loads

from firmware.strictjson import JsonError, loads

ITEM = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
ALPHABET = st.sampled_from(list('{}[],:"\\ 0123456789-+.eEtrufalsn\x01\u00e9') + ["\\u00e9", "\\ud834"])


def strict_cpython(text: str):
    v = strict_loads(text)
    if lone_surrogate(v):  # RFC 8259 8.2: unpredictable; MicroPython cannot hold one: refused by design
        raise ValueError("lone surrogate")
    return v


def lone_surrogate(v) -> bool:
    if isinstance(v, str):
        return any(0xD800 <= ord(c) < 0xE000 for c in v)
    if isinstance(v, list):
        return any(lone_surrogate(x) for x in v)
    if isinstance(v, dict):
        return any(lone_surrogate(k) or lone_surrogate(x) for k, x in v.items())
    return False


def depth(v) -> int:
    if isinstance(v, list):
        return 1 + max((depth(x) for x in v), default=0)
    if isinstance(v, dict):
        return 1 + max((depth(x) for x in v.values()), default=0)
    return 0


@settings(max_examples=400, deadline=None)
@given(ITEM)
def test_every_value_round_trips_like_cpython(v) -> None:
    for text in (json.dumps(v), json.dumps(v, ensure_ascii=False), json.dumps(v, indent=2)):
        got = loads(text)
        assert got == strict_cpython(text) or (isinstance(v, float) and math.isclose(got, v))


@settings(max_examples=1500, deadline=None)
@given(st.lists(ALPHABET, max_size=24).map("".join))
def test_any_text_is_accepted_exactly_when_cpython_accepts_it(text: str) -> None:
    try:
        want = strict_cpython(text)
    except (ValueError, RecursionError):
        want = JsonError
    try:
        got = loads(text)
    except JsonError:
        got = JsonError
    if want is not JsonError and depth(want) > 8:
        assert got is JsonError  # our nesting bound
    else:
        assert got == want, (text, got, want)
