"""The terminal cabinet's player messages (sim/say.py, sim/cabinet.py): the firmware's message ids
in French and English, from the texts the browser screen uses (sim/screen/text.json), never the raw
id, with their dollars, plurals (CLDR) and the vlt's figures as the screen gives them. The expected
sentences are written out here from text.json by hand."""
from __future__ import annotations

from types import SimpleNamespace

from rich.console import Console

from sim import cabinet
from sim.say import line_wins, money, sentence, win_message


def test_ids_become_sentences_in_both_languages() -> None:
    assert sentence(["no_spots"], "fr") == "Choisissez vos numéros"
    assert sentence(["no_spots"], "en") == "Pick your numbers"
    assert sentence(["max_spots", 10], "en") == "At most 10 spots"
    assert sentence(["max_spots", 1], "fr") == "Au plus 1 numéro"  # French singular for 0 and 1 (CLDR)
    assert sentence(["paid", 40], "fr", {"cents": 25}) == "Payé : 40 crédits (10,00 $)"
    assert sentence(["paid", 1], "en", {"cents": 25}) == "Paid: 1 credit ($0.25)"
    assert sentence(["paying", 1], "fr") == "Paiement en cours : encore 1 pièce"
    assert sentence(["spots_not_offered", 1], "en") == "A card of 1 spot is not offered"


def test_a_coupon_amount_comes_in_cents() -> None:
    assert money(2000, "en") == "$20.00" and money(100005, "fr") == "1\u00a0000,05 $"  # a no-break space (OQLF)
    assert money(123456789, "en") == "$1,234,567.89"
    assert sentence(["coupon", 2000], "en") == "Coupon for $20.00 printed: take it to an attendant"
    assert sentence(["coupon", 2000], "fr") == "Coupon de 20,00 $ imprimé : présentez-le à un préposé"


def test_tilts_and_locks_name_their_parts() -> None:
    assert sentence(["tilt", "hopper", "printer"], "en") == \
        "Out of service: coin hopper, coupon printer. Call an attendant"
    assert sentence(["lock", "jackpot", 1200], "fr", {"cents": 25}) == "Gros lot : 1200 crédits (300,00 $). Appelez un préposé"
    vlt = {"cents": 25, "limits": {"bet": 250, "prize": 100000}}
    assert sentence(["tilt", "limits"], "en", vlt) == ("Out of service: no game offered is within the limits allowed on this "
                                                       "machine (bet at most $2.50, prize at most $1,000.00). Call an attendant")
    assert sentence(["bet_refused"], "fr", vlt) == ("Mise refusée : au-delà des limites de l'appareil "
                                                    "(mise d'au plus 2,50 $, lot d'au plus 1\u00a0000,00 $)")


def test_an_unknown_id_or_a_plain_line_is_shown_as_it_came() -> None:
    assert sentence(["no_such_id", 3], "en") == "no_such_id 3"
    assert sentence("resume: hand dealt", "fr") == "resume: hand dealt"


def render(screen: dict, lang: str = "fr") -> str:
    cab = SimpleNamespace(panel=SimpleNamespace(screen=dict({"game": {}}, **screen), lamps={}),
                          firmware=SimpleNamespace(lines=[]))
    out = Console(width=160, record=True)
    out.print(cabinet.render(cab, "", lang))
    return out.export_text()


def test_the_panel_shows_the_sentence_not_the_id() -> None:
    text = render({"say": ["coupon", 2000], "msg": "coupon 2000"})
    assert "Coupon de 20,00 $ imprimé" in text and "coupon 2000" not in text
    assert "Coupon for $20.00 printed" in render({"say": ["coupon", 2000], "msg": "coupon 2000"}, "en")
    tilt = render({"say": ["tilt", "printer"], "msg": "TILT printer: paper out"}, "en")
    assert "Out of service: coupon printer" in tilt and "TILT printer: paper out" in tilt  # and the reason


def test_a_win_is_said_as_the_screen_says_it() -> None:
    assert win_message({"win": 10, "bet": 5, "cents": 25, "outcome": {"bet": 25, "lines": [[1, 10]]}}, "fr") == \
        ("Gagné 10 crédits (2,50 $) sur une mise de 6,25 $", False)  # not celebrated: no more than its bet
    assert win_message({"win": 40, "bet": 5, "cents": 25, "outcome": {"bet": 5, "lines": [[0, 40]]}}, "en") == \
        ("You won 40 credits ($10.00)", True)
    assert win_message({"win": 220, "bet": 20, "cents": 25, "outcome": {"bet": 20, "lines": [[-1, 40]], "free": [10, 180]}},
                       "en") == ("You won 220 credits ($55.00) — free spins played: 10, won $45.00", True)
    assert line_wins({"outcome": {"bet": 5, "lines": [[3, 1], [-1, 40]]}}, "fr") == \
        ["Ligne 4 : 1 crédit", "Symboles dispersés : 40 crédits"]
