"""games/model_json.py against CPython's json module (an independent implementation) held to the
model reader's rules: duplicate keys, NaN/Infinity, fractions and exponents, integers of more than
MAX_DIGITS digits, strings of more than MAX_STRING bytes, lone surrogates and nesting deeper than
MAX_DEPTH refused. For any generated value its JSON text reads as CPython reads it; for any generated
text either both accept it with equal values or both refuse it. Derandomized: the same examples on
every run."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from json_reference import strict_loads

from games.model_json import MAX_DEPTH, MAX_DIGITS, MAX_STRING, ReadError, loads

SMALL = st.integers(min_value=-(10 ** MAX_DIGITS) + 1, max_value=10 ** MAX_DIGITS - 1)
ITEM = st.recursive(
    st.none() | st.booleans() | SMALL | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
ALPHABET = st.sampled_from(list('{}[],:"\\ 0123456789-+.eEtrufalsn\x01\u00e9') + ["\\u00e9", "\\ud834", "0" * 9])
SETTINGS = settings(deadline=None, derandomize=True, database=None)


def model_cpython(text: str):
    """CPython's json under the model reader's rules (ValueError where the reader refuses)."""
    v = strict_loads(text, floats=False)
    check(v, 0)
    return v


def check(v, depth: int) -> None:
    if isinstance(v, bool) or v is None:
        return
    if isinstance(v, int):
        if len(str(abs(v))) > MAX_DIGITS:
            raise ValueError("digits")
    elif isinstance(v, str):
        if any(0xD800 <= ord(c) < 0xE000 for c in v) or len(v.encode("utf-8", "surrogatepass")) > MAX_STRING:
            raise ValueError("string")
    elif isinstance(v, (list, dict)):
        if depth >= MAX_DEPTH:
            raise ValueError("depth")
        for x in (v if isinstance(v, list) else [*v.keys(), *v.values()]):
            check(x, depth + 1)


@settings(SETTINGS, max_examples=400)
@given(ITEM)
def test_every_value_reads_as_cpython_reads_it(v) -> None:
    for text in (json.dumps(v), json.dumps(v, ensure_ascii=False), json.dumps(v, indent=1)):
        try:
            want = model_cpython(text)
        except ValueError:
            want = ReadError
        try:
            got = loads(text)
        except ReadError:
            got = ReadError
        assert got == want, (text, got, want)


@settings(SETTINGS, max_examples=1500)
@given(st.lists(ALPHABET, max_size=24).map("".join))
def test_any_text_is_accepted_exactly_when_cpython_accepts_it(text: str) -> None:
    try:
        want = model_cpython(text)
    except (ValueError, RecursionError):
        want = ReadError
    try:
        got = loads(text)
    except ReadError:
        got = ReadError
    assert got == want, (text, got, want)
