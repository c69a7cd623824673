# s. 89 for video poker: the game's name, the cost of a hand, how it is played and what each final
# hand pays, before play. French first (Quebec), English second. Lines of plain text; the display
# wraps. The deal and draw buttons are named as the player's screen names them (sim/screen/text.json:
# "Donner" / "Deal", then "Tirer" / "Draw", after the French "poker à tirage" for draw poker).
from games.poker_model import DEUCES, JOKER_WILD

_T = {
    "fr": {"c": " :", "bets": "Mises : %s crédits",
           "deal": "Donner : cinq cartes sont données d'un paquet de %s, brassé à chaque partie.",
           "d52": "52 cartes", "d53": "52 cartes et un joker",
           "hold": "Touchez les cartes à garder (GARDÉE), ou Garde automatique pour les cartes que "
                   "suggère l'appareil; touchez de nouveau une carte pour ne plus la garder.",
           "draw": "Tirer : chaque carte non gardée est remplacée par la carte suivante du même paquet.",
           "deuces": "Les quatre deux sont frimés : chacun tient lieu de n'importe quelle carte.",
           "joker": "Le joker est frimé : il tient lieu de n'importe quelle carte.",
           "pay": "La main finale est payée selon le tableau; seule la combinaison la plus élevée est payée.",
           "pays": "Gains (crédits) selon la mise %s :",
           "malf": "Toute défectuosité annule jeux et paiements; la mise est remboursée si le joueur n'y est pour rien."},
    "en": {"c": ":", "bets": "Bets: %s credits",
           "deal": "Deal: five cards are dealt from a deck of %s, shuffled for every game.",
           "d52": "52 cards", "d53": "52 cards and a joker",
           "hold": "Touch the cards to keep (HELD), or Auto hold for the cards the machine suggests; "
                   "touch a card again to stop holding it.",
           "draw": "Draw: each card not held is replaced by the next card of the same deck.",
           "deuces": "The four deuces are wild: each stands for any card.",
           "joker": "The joker is wild: it stands for any card.",
           "pay": "The final hand pays as the table shows; only the highest combination is paid.",
           "pays": "Pays (credits) by bet %s:",
           "malf": "Malfunction voids all pays and plays; the wager is refunded when the player is not at fault."},
}


def describe(game, lang="fr"):
    t = _T["fr" if lang not in _T else lang]
    m = game.m
    out = [game.name.get(lang, game.name["en"]), t["bets"] % ", ".join(str(b) for b in m.bets),
           t["deal"] % t["d53" if m.deck == 53 else "d52"], t["hold"], t["draw"]]
    if m.wild == DEUCES:
        out.append(t["deuces"])
    elif m.wild == JOKER_WILD:
        out.append(t["joker"])
    out.append(t["pay"])
    out.append(t["pays"] % " / ".join(str(b) for b in m.bets))
    for i in range(len(m.kind)):
        out.append("%s%s %s" % (game.award_name(i, lang), t["c"], " / ".join(str(p[i]) for p in m.pays)))
    out.append(t["malf"])
    return out
