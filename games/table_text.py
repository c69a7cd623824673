# s. 89 for a table game: its name, the rules the model states (what a round is, how each wager
# wins), then every wager with its payout and its bet levels, before play. French first (Québec),
# English second. Lines of plain text; the display wraps.
_T = {
    "fr": {"to": "%d à %d", "bets": "mises %s crédits", "c": " :", "comm": "commission de %d %%",
           "head": "Mises et gains (rapport de paiement; la mise est remise avec le gain) :",
           "malf": "Toute défectuosité annule jeux et paiements; la mise est remboursée si le joueur n'y est pour rien."},
    "en": {"to": "%d to %d", "bets": "bets %s credits", "c": ":", "comm": "%d %% commission",
           "head": "Wagers and pays (payout odds; a winning wager's stake is returned with its win):",
           "malf": "Malfunction voids all pays and plays; the wager is refunded when the player is not at fault."},
}


def pays_text(pays, lang):
    """A payout as the model writes it, in words: [35, 1] -> "35 to 1"; {"2": [2, 1], ...} -> "2: 2 to 1, ..."."""
    t = _T[lang]
    if isinstance(pays, list):
        return t["to"] % (pays[0], pays[1])
    if isinstance(pays, dict):
        return ", ".join("%s%s %s" % (k, t["c"], pays_text(pays[k], lang)) for k in sorted(pays, key=_num))
    return str(pays)


def _num(k):
    return int(k) if k.isdigit() else 0


def describe(game, lang="fr"):
    t = _T[lang]
    m = game.m
    out = [m.name[lang], m.rules[lang], t["head"]]
    for wid in m.ids:
        w = m.wagers[wid]
        line = "  %s%s %s (%s)" % (w.name[lang], t["c"], pays_text(w.pays, lang), w.section)
        if w.extra is not None and isinstance(w.extra, dict) and w.extra.get("commission"):
            n, d = w.extra["commission"]
            line += "; " + t["comm"] % (n * 100 // d)
        out.append(line + "; " + t["bets"] % "/".join(str(b) for b in w.bets))
    out.append(t["malf"])
    return out
