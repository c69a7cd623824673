"""The terminal cabinet's player messages (sim/say.py, sim/cabinet.py): the firmware's message ids
in French and English, from the texts the browser screen uses (sim/screen/text.json), never the raw
id. The expected sentences are written out here from text.json by hand."""
from __future__ import annotations

from types import SimpleNamespace

from rich.console import Console

from sim import cabinet
from sim.say import money, sentence


def test_ids_become_sentences_in_both_languages() -> None:
    assert sentence(["no_spots"], "fr") == "Choisissez vos numéros"
    assert sentence(["no_spots"], "en") == "Pick your numbers"
    assert sentence(["max_spots", 10], "en") == "At most 10 numbers"
    assert sentence(["paid", 40], "fr") == "Payé : 40 crédits"


def test_a_coupon_amount_comes_in_cents() -> None:
    assert money(2000, "en") == "$20.00" and money(100005, "fr") == "1000,05 $"
    assert sentence(["coupon", 2000], "en") == "Coupon for $20.00 printed: take it to an attendant"
    assert sentence(["coupon", 2000], "fr") == "Coupon de 20,00 $ imprimé : présentez-le à un préposé"


def test_tilts_and_locks_name_their_parts() -> None:
    assert sentence(["tilt", "hopper", "printer"], "en") == \
        "Out of service: coin hopper, coupon printer. Call an attendant"
    assert sentence(["lock", "jackpot", 1200], "fr") == "Gros lot : 1200 crédits. Appelez un préposé"


def test_an_unknown_id_or_a_plain_line_is_shown_as_it_came() -> None:
    assert sentence(["no_such_id", 3], "en") == "no_such_id 3"
    assert sentence("resume: hand dealt", "fr") == "resume: hand dealt"


def render(screen: dict) -> str:
    cab = SimpleNamespace(panel=SimpleNamespace(screen=dict({"game": {}}, **screen), lamps={}),
                          firmware=SimpleNamespace(lines=[]))
    out = Console(width=160, record=True)
    out.print(cabinet.render(cab, ""))
    return out.export_text()


def test_the_panel_shows_the_sentence_not_the_id() -> None:
    text = render({"say": ["coupon", 2000], "msg": "coupon 2000"})
    assert "Coupon de 20,00 $ imprimé" in text and "Coupon for $20.00 printed" in text
    assert "coupon 2000" not in text
    tilt = render({"say": ["tilt", "printer"], "msg": "TILT printer: paper out"})
    assert "Out of service: coupon printer" in tilt and "TILT printer: paper out" in tilt  # and the reason
