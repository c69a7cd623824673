"""The player's words on the terminal cabinet, in French or English: a frame's `say` (an id and
its arguments, docs/screen.md), the win, the symbols' names, amounts in dollars, through the same
texts and rules the browser screen uses (sim/screen/text.json, read by sim/screen/screen.js
`sentence`, `fmt`, `money`, `winMessage`)."""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

TEXTS = Path(__file__).resolve().parent / "screen" / "text.json"
ARG = re.compile(r"\{(\$?)(\d+)\}")


@cache
def texts() -> dict:
    return json.loads(TEXTS.read_text(encoding="utf-8"))


def text(section: str, key: str, lang: str) -> str | dict | None:
    return texts()[lang].get(section, {}).get(key)


def money(cents: int, lang: str) -> str:
    """'1 234,50 $' (a no-break space between thousands, as the OQLF writes it) / '$1,234.50'."""
    whole, part = divmod(int(cents), 100)
    grouped = f"{whole:,}"
    return f"{grouped.replace(',', chr(0xA0))},{part:02d} $" if lang == "fr" else f"${grouped}.{part:02d}"


def plural(template: str | dict | None, args: list, lang: str) -> str | None:
    """A text's form for the count in argument `n` (0 by default): the Unicode CLDR plural rules,
    French "one" for 0 and 1, English for 1 only."""
    if template is None or isinstance(template, str):
        return template
    n = int(args[template.get("n", 0)])
    return template["one"] if (n < 2 if lang == "fr" else n == 1) else template["other"]


def fill(template: str | dict | None, args: list, lang: str = "fr", cents: int = 0) -> str:
    """{N}: argument N as it is; {$N}: argument N, a number of credits, in dollars at cents a credit."""
    t = plural(template, args, lang)
    if t is None:
        return ""

    def arg(m: re.Match) -> str:
        i = int(m.group(2))
        if i >= len(args):
            return ""
        return money(int(args[i]) * cents, lang) if m.group(1) else str(args[i])

    return ARG.sub(arg, t)


def limits(lim: dict, lang: str) -> str:
    """The profile's figures (a frame's `limits`, in cents): 'mise d'au plus 2,50 $, lot d'au plus ...'."""
    return fill(text("ui", "limits", lang), [money(lim["bet"], lang), money(lim["prize"], lang)], lang)


def sentence(say: list | str, lang: str, frame: dict | None = None) -> str:
    """[id, args...] in `lang`, amounts in dollars at the frame's credit value and the frame's limits
    where the id needs them; an id the texts do not know comes back as it came (as the screen)."""
    if isinstance(say, str):
        return say  # a plain line from the firmware
    f = frame or {}
    cents = int(f.get("cents") or 0)
    t = texts()[lang]
    sid, args = str(say[0]), list(say[1:])
    template = t["say"].get(sid)
    if template is None:
        return " ".join(str(a) for a in say)
    if sid == "tilt":
        def kind(k: str) -> str:
            w = t["tilt"].get(k, k)
            return w + " (%s)" % limits(f["limits"], lang) if k == "limits" and f.get("limits") else w
        return template.replace("{list}", ", ".join(kind(k) for k in args))
    if sid == "lock":
        return fill(template, [t["lock"].get(args[0], args[0]), *args[1:]], lang, cents)
    if sid in ("coupon", "validating"):  # the coupon's amount comes in cents
        return fill(template, [money(args[0], lang)], lang)
    if sid == "bet_refused" and f.get("limits"):
        return fill(template, args, lang) + " (%s)" % limits(f["limits"], lang)
    return fill(template, args, lang, cents)


def win_message(frame: dict, lang: str) -> tuple[str, bool]:
    """(the win's words, whether it is celebrated): a win above the bet it was played at (the
    frame's outcome.bet; the bet meter may have changed since) is; one no larger is said plainly."""
    win, cents = int(frame.get("win") or 0), int(frame.get("cents") or 0)
    outcome = frame.get("outcome") or {}
    bet = int(outcome.get("bet", frame.get("bet") or 0))
    small = 0 < bet and win <= bet
    msg = fill(text("ui", "win_small" if small else "win_msg", lang), [win, bet], lang, cents)
    if outcome.get("free"):
        msg += " — " + fill(text("ui", "free_msg", lang), outcome["free"], lang, cents)
    return msg, not small


def line_wins(frame: dict, lang: str) -> list[str]:
    """The winning lines of the frame's outcome, as the screen lists them: 'Ligne 4 : 20 crédits'."""
    out = []
    for li, credits in (frame.get("outcome") or {}).get("lines", []):
        if li < 0:
            out.append(fill(text("ui", "scatter_win", lang), [credits], lang))
        else:
            out.append(fill(text("ui", "line_win", lang), [li + 1, credits], lang))
    return out
