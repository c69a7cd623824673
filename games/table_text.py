# s. 89 for a table game: its name, the rules the model states (what a round is, how each wager
# wins), then every wager with its payout and its bet levels, before play. French first (Québec),
# English second. Lines of plain text; the display wraps.
from games.table_model import BETS, COMMISSION, PAY, SECTION

_T = {
    "fr": {"to": "%d à %d", "bets": "mises %s crédits", "c": " :", "comm": "commission de %d %%",
           "head": "Mises et gains (rapport de paiement; la mise est remise avec le gain) :",
           "malf": "Toute défectuosité annule jeux et paiements; la mise est remboursée si le joueur n'y est pour rien."},
    "en": {"to": "%d to %d", "bets": "bets %s credits", "c": ":", "comm": "%d %% commission",
           "head": "Wagers and pays (payout odds; a winning wager's stake is returned with its win):",
           "malf": "Malfunction voids all pays and plays; the wager is refunded when the player is not at fault."},
}


def pays_text(pay, lang):
    """A compiled payout in words: (35, 1) -> "35 to 1"; {2: (2, 1), 3: (1, 1)} (the totals of a craps
    wager) -> "2: 2 to 1, 3: 1 to 1"; [(1, 1), (2, 1), (3, 1)] (a sic bo single, by dice) -> "1: 1 to 1, ..."."""
    t = _T[lang]
    if isinstance(pay, tuple):
        return t["to"] % (pay[0], pay[1])
    if isinstance(pay, dict):
        return ", ".join("%d%s %s" % (k, t["c"], pays_text(pay[k], lang)) for k in sorted(pay))
    return ", ".join("%d%s %s" % (i + 1, t["c"], pays_text(pay[i], lang)) for i in range(len(pay)))


def describe(game, lang="fr"):
    return list(lines(game, lang))


def lines(game, lang="fr"):
    """describe's lines one at a time: the console says each as it is made, so craps-83's 50 wagers
    (6 KB of text) are never whole in a heap its session has left in pieces."""
    t = _T[lang]
    m = game.m
    yield m.name[lang]
    yield m.rules[lang]
    yield t["head"]
    for wid in m.ids:
        w = m.wagers[wid]
        sec = w[SECTION]
        if lang == "fr" and sec.startswith("s. "):  # "art." in French (the model cites the English text)
            sec = "art. " + sec[3:]
        line = "  %s%s %s (%s)" % (m.wager_name(wid, lang), t["c"], pays_text(w[PAY], lang), sec)
        if w[COMMISSION] is not None:
            n, d = w[COMMISSION]
            line += "; " + t["comm"] % (n * 100 // d)
        yield line + "; " + t["bets"] % "/".join(str(b) for b in w[BETS])
    yield t["malf"]
