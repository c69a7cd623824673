"""CPython's json module (an independent implementation) held to a strict reader's rules, the
reference the device JSON readers are checked against (test_strictjson_crosscheck,
test_model_json_crosscheck): NaN/Infinity and duplicate keys refused, and with floats=False any
fraction or exponent. ValueError where the rules refuse."""
from __future__ import annotations

import json


def _refuse(name: str):
    raise ValueError(name)


def _no_dupes(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("duplicate key")
    return d


def strict_loads(text: str, floats: bool = True):
    if floats:
        return json.loads(text, parse_constant=_refuse, object_pairs_hook=_no_dupes)
    return json.loads(text, parse_constant=_refuse, parse_float=_refuse, object_pairs_hook=_no_dupes)
