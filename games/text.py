# s. 89: name of the game, unit cost of a wager, prizes and how they are won, shown before play.
# French first (Quebec), English as the second language. Lines of plain text; the display wraps.
_T = {
    "fr": {"c": " :", "bet": "Mise", "credits": "crédits", "line": "ligne", "lines": "lignes",
           "pays": "Gains (crédits) selon la mise", "scatter": "%s (symbole dispersé), n'importe où",
           "wild": "%s remplace tous les symboles sauf %s.", "wild_all": "%s remplace tous les symboles.",
           "left": "Les gains de ligne se lisent de gauche à droite, à partir du premier rouleau.",
           "highest": "Seul le gain le plus élevé de chaque ligne est payé; les gains des lignes s'additionnent.",
           "free": "%s symboles %s : %s tours gratuits; gains multipliés par %d.",
           "retrig": "Pendant les tours gratuits, %s symboles %s en ajoutent %s", "cap": "(au plus %d tours par série).",
           "malf": "Toute défectuosité annule jeux et paiements; la mise est remboursée si le joueur n'y est pour rien.",
           "any": "toute combinaison de", "or": "ou", "then": "puis",
           "mwild": "%s remplace tous les symboles et multiplie le gain par %d (plusieurs se multiplient).",
           "both": "Les gains de ligne se lisent aussi de droite à gauche; une ligne complète est payée une fois.",
           "reel": "rouleau",
           "prog": "Progressif à la mise de %d : %s le remporte à la place de %d crédits; il croît de %s de chaque "
                   "crédit misé à cette mise.",
           "ceil": "Il paie au plus %d crédits : ce qui est misé au-delà s'ajoute au progressif suivant.",
           "ways": "%d voies, %d crédits par pièce", "wpays": "Gains (crédits) par voie selon la mise",
           "wleft": "Une voie : un symbole par rouleau, de gauche à droite à partir du premier rouleau.",
           "wadd": "Chaque voie gagnante de chaque symbole est payée; les gains s'additionnent.",
           "alone": "Les %s seuls ne paient pas comme un autre symbole."},
    "en": {"c": ":", "bet": "Bet", "credits": "credits", "line": "line", "lines": "lines",
           "pays": "Pays (credits) by bet", "scatter": "%s scattered, anywhere",
           "wild": "%s substitutes for all symbols except %s.", "wild_all": "%s substitutes for all symbols.",
           "left": "Line wins pay left to right, starting on the first reel.",
           "highest": "Only the highest win per line is paid; wins on different lines add up.",
           "free": "%s %s symbols: %s free spins; wins multiplied by %d.",
           "retrig": "During free spins, %s %s symbols add %s more", "cap": "(at most %d spins per feature).",
           "malf": "Malfunction voids all pays and plays; the wager is refunded when the player is not at fault.",
           "any": "any mix of", "or": "or", "then": "then",
           "mwild": "%s substitutes for all symbols and multiplies the win by %d (several multiply).",
           "both": "Line wins also pay right to left; a full line pays once.",
           "reel": "reel",
           "prog": "Progressive at a bet of %d: %s wins it instead of %d credits; it grows by %s of every credit "
                   "wagered at that bet.",
           "ceil": "It pays at most %d credits: what is wagered past that goes to the next progressive.",
           "ways": "%d ways, %d credits per coin", "wpays": "Pays (credits) per way by bet",
           "wleft": "A way is one symbol per reel, left to right, starting on the first reel.",
           "wadd": "Every winning way of every symbol is paid; wins add up.",
           "alone": "%s alone does not pay as another symbol."},
}


def _sym(game, code, lang):
    name = game.m.symbols[code]
    t = game.model.get("symbols")
    if isinstance(t, dict) and isinstance(t.get(name), dict):
        return t[name].get(lang, name)
    return name


def _alt(game, codes, lang, t):
    """Symbol names as alternatives: "A", "A ou B", "A, B ou C"."""
    names = [_sym(game, c, lang) for c in codes]
    if len(names) < 2:
        return "".join(names)
    return "%s %s %s" % (", ".join(names[:-1]), t["or"], names[-1])


def _counts(table, what, t):
    """The counts (what 0) or their values (what 1) of a per-count table's entries that are set:
    "3", "3, 4 ou 5" / "10, 15 ou 20" (one value when they are all the same)."""
    vals = ["%d" % (n if what == 0 else table[n]) for n in range(len(table)) if table[n]]
    if len(vals) < 2 or (what == 1 and vals.count(vals[0]) == len(vals)):  # "5", not "5, 5 ou 5"
        return vals[0] if vals else ""
    return "%s %s %s" % (", ".join(vals[:-1]), t["or"], vals[-1])


def describe(game, lang="fr"):
    t = _T["fr" if lang not in _T else lang]
    m = game.m
    out = [game.name.get(lang, game.name["fr"])]
    nl = len(m.lines)
    shown = {}  # group name -> its label, for the progressive's line
    if m.ways:  # jeton-reels/3: rows ** reels ways, the bet in coins of `cost` credits
        what = t["ways"] % (m.rows ** m.nreels, m.cost)
    else:
        what = "%d %s" % (nl, t["line"] if nl == 1 else t["lines"])
    out.append("%s%s %s %s (%s)" % (t["bet"], t["c"], ", ".join(str(b) for b in m.bets), t["credits"], what))
    # French puts a space before a colon, English none ("Mise : 5" / "Bet: 5")
    out.append(t["wpays" if m.ways else "pays"] + " " + " / ".join(str(b) for b in m.bets) + t["c"])
    for g, gname in enumerate(m.group_names):
        if m.v2:  # the members per reel: "R7/RBAR, W7/WBAR, B7/BBAR" when they differ
            per = [[c for c in range(len(m.symbols)) if m.rmember[i][c] >> g & 1] for i in range(m.nreels)]
            if any(p != per[0] for p in per):  # reel by reel, left to right
                label = (", %s " % t["then"]).join(_alt(game, p, lang, t) for p in per)
                per = None
            else:
                codes = per[0]
        else:
            per = True
            codes = [c for c in range(len(m.symbols)) if m.gmask[c] >> g & 1 and c != m.wild]
            if m.wild is not None and not codes:
                codes = [m.wild]
        if per is not None:
            label = _alt(game, codes, lang, t)
            if len(codes) > 1:
                label = t["any"] + " " + label
        shown[gname] = label
        for n in range(m.nreels, 0, -1):
            vals = [m.cpay[bi][g][n] for bi in range(len(m.bets))]
            if vals[0] or vals[-1]:
                if n > 1 and [m.cpay[bi][g][n - 1] for bi in range(len(m.bets))] == vals:
                    continue
                out.append("  %d x %s%s %s" % (n, label, t["c"], " / ".join(str(v) for v in vals)))
    if m.scatter is not None:
        sname = _sym(game, m.scatter, lang)
        for n in range(len(m.spay[0]) - 1, 0, -1):
            vals = [m.spay[bi][n] for bi in range(len(m.bets))]
            if vals[-1]:
                out.append("  %d x %s%s %s" % (n, t["scatter"] % sname, t["c"], " / ".join(str(v) for v in vals)))
    if m.wild is not None:
        w = _sym(game, m.wild, lang)
        out.append(t["wild"] % (w, _sym(game, m.scatter, lang)) if m.scatter is not None else t["wild_all"] % w)
    for c in range(len(m.symbols)):
        if m.wmult[c] > 1:
            out.append(t["mwild"] % (_sym(game, c, lang), m.wmult[c]))
    if m.ways:
        out.append(t["wleft"])
        out.append(t["wadd"])
        if not m.wild_alone:
            out.append(t["alone"] % ", ".join(_sym(game, c, lang) for c in range(len(m.symbols)) if m.wmult[c]))
    else:
        out.append(t["left"])
        if m.both_ways:
            out.append(t["both"])
        out.append(t["highest"])
    if m.free:  # the spins for each count of scatters that awards some, exactly (no "or more")
        sname = _sym(game, m.scatter, lang)
        out.append(t["free"] % (_counts(m.award, 0, t), sname, _counts(m.award, 1, t), m.multiplier))
        if any(m.retrigger):
            out.append(t["retrig"] % (_counts(m.retrigger, 0, t), sname, _counts(m.retrigger, 1, t))
                       + (" " + t["cap"] % m.cap if m.cap else "."))
    p = m.progressive
    if p:  # s. 91: the progressive, its rate and, under a prize limit, its ceiling and roll-over
        count, _, gname = p["pay"].partition(" ")
        out.append(t["prog"] % (p["bet"], "%s x %s" % (count, shown.get(gname, gname)), p["reset"],
                                "%d/%d" % (p["num"], p["den"])))
        if p["ceiling"] is not None:
            out.append(t["ceil"] % p["ceiling"])
    out.append(t["malf"])
    return out
