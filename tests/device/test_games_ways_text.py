# The rules page of a jeton-reels/3 (true ways) game, on both runtimes (games/text.py compiled from
# source takes more than the heap of tests/device/test_games_ways.py: this module keeps the default).
import games

MINI = "tests/fixtures/games/ways-mini.json"


def test_rules_page_says_ways_not_lines():
    # s. 89: the unit cost of a wager and how prizes are won, as this format plays them
    g = games.load(MINI)
    en = g.describe("en")
    assert "Bet: 20, 40 credits (8 ways, 20 credits per coin)" in en
    assert "W alone does not pay as another symbol." in en
    assert not [x for x in en if "line" in x]
    fr = g.describe("fr")
    assert "Mise : 20, 40 crédits (8 voies, 20 crédits par pièce)" in fr
    assert "Les W seuls ne paient pas comme un autre symbole." in fr


def test_console_recall_names_ways_wins():
    # a ways win has no line (-2): the recall called it a scatter before it knew the kind
    from firmware import console_read

    g = games.load(MINI)
    out = []
    console_read.outcome(g, g.evaluate(20, [1, 1, 2]), "en", out)
    assert out[-2:] == ["ways: 2 A pays 3", "ways: 3 K pays 4"], out
