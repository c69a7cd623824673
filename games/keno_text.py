# s. 89 for keno: the game's name, the cost of a card, how it is played and what each spot count
# pays, before play. French first (Quebec), English second. Lines of plain text; the display wraps.
_T = {
    "fr": {"c": " :", "bet": "Mise", "credits": "crédits",
           "how": "Choisissez de %s à %s numéros de 1 à %d, ou faites un choix au hasard; %d numéros sont tirés.",
           "pays": "Gains (crédits) selon la mise %s, par numéros choisis et numéros atteints :",
           "row": "  %d choisi%s, %d atteint%s : %s",
           "malf": "Toute défectuosité annule jeux et paiements; la mise est remboursée si le joueur n'y est pour rien."},
    "en": {"c": ":", "bet": "Bet", "credits": "credits",
           "how": "Pick %s to %s numbers from 1 to %d, or a quick pick; %d numbers are drawn.",
           "pays": "Pays (credits) by bet %s, by spots picked and spots caught:",
           "row": "  %d spot%s, %d caught%s: %s",
           "malf": "Malfunction voids all pays and plays; the wager is refunded when the player is not at fault."},
}


def _pl(n, lang):
    # the plural "s": French from 2 on ("0 atteint", "1 choisi"), English but for 1 (CLDR plural rules)
    return "s" if (n >= 2 if lang == "fr" else n != 1) else ""


def describe(game, lang="fr"):
    t = _T["fr" if lang not in _T else lang]
    m = game.m
    bets = " / ".join(str(b) for b in m.bets)
    out = [game.name.get(lang, game.name["fr"]),
           "%s%s %s %s" % (t["bet"], t["c"], ", ".join(str(b) for b in m.bets), t["credits"]),
           t["how"] % (m.spots[0], m.spots[-1], m.numbers, m.drawn),
           t["pays"] % bets]
    for s in m.spots:
        rows = m.pay[s]
        for h in range(s, -1, -1):
            vals = [rows[bi][h] for bi in range(len(m.bets))]
            if vals[-1] or vals[0]:
                out.append(t["row"] % (s, _pl(s, lang), h, _pl(h, lang) if lang == "fr" else "",
                                       " / ".join(str(v) for v in vals)))
    out.append(t["malf"])
    return out
