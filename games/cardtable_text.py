# s. 89 for the card-poker table games: the game's name, its bets, the rules the model gives (how a
# round is played, in the by-law's words) and then every wager with what it pays, read from the
# model's pay tables (never written twice: the rules' paragraphs name no amount). French first
# (Quebec), English second; lines of plain text, the display wraps.
_T = {
    "fr": {"bets": "Mises : %s crédits par mise", "odds": "%s (%s) : %d à 1", "hand": "  %s : %d à 1",
           "hands": {"royal_flush": "Quinte royale", "straight_flush": "Quinte couleur",
                     "four_of_a_kind": "Carré", "full_house": "Main pleine", "flush": "Couleur",
                     "straight": "Quinte", "three_of_a_kind": "Brelan", "two_pair": "Deux paires",
                     "pair": "Paire", "ace_king": "As et roi",
                     "spread_1": "Écart de 1", "spread_2": "Écart de 2", "spread_3": "Écart de 3",
                     "spread_4": "Écart de 4 ou plus", "win": "Guerre gagnée", "tie": "Guerre à égalité",
                     "four_aces": "Quatre as", "pair_aces": "Paire d'as", "pair_kings": "Paire de rois",
                     "pair_queens": "Paire de dames"},
           "table": "%s (%s) :", "same": "%s (%s) : payée comme la mise qu'elle augmente",
           "malf": "Toute défectuosité annule jeux et paiements; la mise est remboursée si le joueur n'y "
                   "est pour rien."},
    "en": {"bets": "Bets: %s credits a wager", "odds": "%s (%s): %d to 1", "hand": "  %s: %d to 1",
           "hands": {"royal_flush": "Royal flush", "straight_flush": "Straight flush",
                     "four_of_a_kind": "Four of a kind", "full_house": "Full house", "flush": "Flush",
                     "straight": "Straight", "three_of_a_kind": "Three of a kind", "two_pair": "Two pairs",
                     "pair": "Pair", "ace_king": "Ace and king",
                     "spread_1": "Spread of 1", "spread_2": "Spread of 2", "spread_3": "Spread of 3",
                     "spread_4": "Spread of 4 and over", "win": "War won", "tie": "War tied",
                     "four_aces": "Four aces", "pair_aces": "Pair of aces", "pair_kings": "Pair of kings",
                     "pair_queens": "Pair of queens"},
           "table": "%s (%s):", "same": "%s (%s): paid as the wager it adds to",
           "malf": "Malfunction voids all pays and plays; the wager is refunded when the player is not at "
                   "fault."},
}


def hand_word(name, lang):
    t = _T["fr" if lang not in _T else lang]
    return t["hands"].get(name, name.replace("_", " "))


def _table(out, t, lang, title, section, names, table):
    out.append(t["table"] % (title, section))
    for i in range(len(names)):
        if table[i]:
            out.append(t["hand"] % (hand_word(names[i], lang), table[i]))


def describe(game, lang="fr"):
    t = _T["fr" if lang not in _T else lang]
    m = game.m
    out = [game.name.get(lang, game.name["en"]), t["bets"] % ", ".join(str(b) for b in m.bets)]
    out += game.rules(lang)
    for spec in game.WAGERS:
        wid = spec[0]
        if wid not in m.pays:
            continue
        title = m.names[wid].get(lang, m.names[wid]["en"])
        p = m.pays[wid]
        if p is None:
            out.append(t["same"] % (title, m.section[wid]))
        elif isinstance(p, int):
            out.append(t["odds"] % (title, m.section[wid], p))
        else:
            _table(out, t, lang, title, m.section[wid], spec[2], p)
        for key, names in spec[3]:
            part = m.parts.get((wid, key))
            if part is not None:
                _table(out, t, lang, part["name"].get(lang, part["name"]["en"]), part["section"], names,
                       m.extra[wid][key])
    out.append(t["malf"])
    return out
