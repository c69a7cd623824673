"""The player's messages on the terminal cabinet, in French and English: a frame's `say` (an id and
its arguments, docs/screen.md) through the same texts the browser screen uses
(sim/screen/text.json, read by sim/screen/screen.js `sentence`)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

TEXTS = Path(__file__).resolve().parent / "screen" / "text.json"


@cache
def texts() -> dict:
    return json.loads(TEXTS.read_text(encoding="utf-8"))


def money(cents: int, lang: str) -> str:
    whole, part = divmod(int(cents), 100)
    return f"{whole},{part:02d} $" if lang == "fr" else f"${whole}.{part:02d}"


def fill(template: str, args: list) -> str:
    for i, a in enumerate(args):
        template = template.replace("{%d}" % i, str(a))
    return template


def sentence(say: list | str, lang: str) -> str:
    """[id, args...] in `lang`; an id the texts do not know comes back as it came (as the screen)."""
    if isinstance(say, str):
        return say  # a plain line from the firmware
    t = texts()[lang]
    sid, args = str(say[0]), list(say[1:])
    template = t["say"].get(sid)
    if template is None:
        return " ".join(str(a) for a in say)
    if sid == "tilt":
        return template.replace("{list}", ", ".join(t["tilt"].get(k, k) for k in args))
    if sid == "lock":
        return fill(template, [t["lock"].get(args[0], args[0]), *args[1:]])
    if sid == "coupon":  # the coupon's amount comes in cents
        return fill(template, [money(args[0], lang)])
    return fill(template, args)
