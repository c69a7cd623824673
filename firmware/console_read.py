# What a technician reads on the console (issue 23, item 17): the meters in columns with their units
# and dollars, the cabinet's state in words, a recalled game in the model's own words, the
# progressive. Each function gives lines of text (generators: one line at a time in the heap);
# firmware/console.py says them. Imported when such a command runs, so an idle cabinet's heap does
# not hold it; the `... json` variants stay in console.py, for machines, unchanged.
import json

from firmware import localtime
from firmware.ledger import COUNTS, METERS
from firmware.money import dollars

# the states in the technician's words (firmware/states.py says what each means)
_WORDS = (("handpay", "a cash-out waits for the attendant's hand pay"), ("jackpot", "a win waits for the attendant"),
          ("payout", "paying out (the hopper, or a coupon owed)"), ("spin", "the reels are turning"),
          ("service", "the audit key is on and nothing is owed"), ("door", "a door is open"),
          ("tilt", "out of service"), ("hold", "a poker hand waits for its holds and the draw"),
          ("audit", "the audit key is on"), ("credit", "credits on the meter, ready to play"),
          ("idle", "no credits, ready"))


def named(game, pay, lang):
    """'3 SEVEN' -> '3 Red seven': a pay or a symbol with the model's own name for its symbol."""
    n, _, code = pay.partition(" ")
    if not code:
        n, code = "", n
    syms = game.model.get("symbols") if game is not None else None
    t = syms.get(code) if isinstance(syms, dict) else None
    name = t.get(lang, t.get("en", code)) if isinstance(t, dict) else code
    return "%s %s" % (n, name) if n else name


def meters(snap, cents):
    """One meter a line in aligned columns: value, unit (credits or count) and dollars."""
    yield "%-21s %10s  %-7s  %17s" % ("meter", "value", "unit", "dollars")
    for name in ("credits",) + METERS:  # the credit meter first, then the ledger's order
        # 21: the longest meter's name (bill_unproven_credits)
        if name in COUNTS:
            yield "%-21s %10d  count" % (name, snap[name])
        else:
            yield "%-21s %10d  %-7s  %17s" % (name, snap[name], "credits", dollars(snap[name] * cents))
    yield "1 credit = %s" % dollars(cents)


def state(cab):
    """The cabinet's state in words (the first line 'state NAME: ...'; tilts 'tilt KIND: reason';
    a lock 'lock: KIND AMOUNT credits ...', whose first two words sim/fuzz/oracle.py and sim/powercut.py read)."""
    st = cab.state
    words = st
    for name, text in _WORDS:
        if name == st:
            words = text
    yield "state %s: %s" % (st, words)
    led = cab.ledger
    cents = cab.config.DENOM_CENTS
    yield "credits %d (%s), bet %d" % (led.credits, dollars(led.credits * cents), led.bet)
    s = led.session
    if s:
        yield "tournament entry %d: %d tournament credits, %d games left" % (s["entry"], s["credits"], s["left"])
    tilts = cab.tilts
    for kind in sorted(tilts):
        yield "tilt %s: %s" % (kind, tilts[kind])
    lock = led.lock
    if lock:
        yield "lock: %s %d credits (%s): the attendant's key pays it" % (
            lock["kind"], lock["amount"], dollars(lock["amount"] * cents))
    p = cab.progressive
    if p:
        st = led.st
        amount = p.amount(st)
        yield "progressive: %d credits (%s) on %s at bet %d (+%d/%d of each credit wagered at bet %d, reset %d, ceiling %s%s)" % (
            amount, dollars(amount * cents), p.pay, p.bet, p.num, p.den, p.bet, p.reset, p.ceiling or "none",
            ", link " + p.link["id"] if p.link else "")
        # the exact figures, in 1/q credit: what the next win pays from, and what waits for the next reset
        yield "progressive meter: %d/%d, rolled over %d/%d" % (st.get("prog_n", p.reset * p.den), p.den, p.rollover(st), p.den)
        if p.feed is not None:  # linked through SAS: a hit pays the controller's level, not the meter
            lp = p.feed.shown(p, st)
            yield "progressive linked: %s (the central system's level 1)" % (
                "no level" if lp is None else "%d credits (%s)" % (lp, dollars(lp * cents)))
    levels = cab.switches.levels()
    for name in sorted(levels):
        if levels[name]:
            yield "%s %s" % (name, "on" if name.startswith("key_") else "open")
    g = led.game
    if g:
        # in words: the unseen cards of an open hand are nobody's to read, and none is shown
        ph = g["phase"]
        if ph == "wager" and g.get("deck"):
            what = "hand dealt at bet %d, waiting for the draw" % g["bet"]
        elif ph == "wager":
            what = "bet %d committed, its outcome not yet" % g["bet"]
        elif ph == "spin":
            what = "bet %d, the reels turning, award %d pending" % (g["bet"], g["award"])
        elif ph == "void":
            what = "bet %d refunded: the game was void (s. 95)" % g["bet"]
        else:
            what = "bet %d, won %d" % (g["bet"], g["award"])
        yield "last game: #%d %s" % (led.meters["games_played"], what)


def recall(led, game, lang):
    """The last games, oldest first, one record read at a time: a headline, then what was shown."""
    for name in led.recall_blocks():
        g = json.loads(led.mem.read(name))
        after = "-> %d" % g["after"] if g["after"] is not None else "(award pending)"
        yield "#%d %s %s bet %d win %d%s credits %d %s%s" % (
            g["n"], localtime.stamp(g["t"]), g.get("id") or "?", g["bet"], g["win"], " by hand" if g["hand"] else "",
            g["before"], after, " (%d in)" % g["in"] if g.get("in") else "")
        for line in game_lines(g, game, lang):
            yield "    " + line


def game_lines(g, game, lang):
    """A recalled game in words, evaluated again from its draws by the game played."""
    out = []
    if game is None or g.get("id") not in (None, game.id):
        out.append("draws %s (game %s not loaded here: python -m sim.replay shows it)" % (g["draws"], g.get("id")))
    else:
        try:
            # a table round's record replays through evaluate_round (games/table_game.py)
            o = (game.evaluate_round if hasattr(game, "evaluate_round") else game.evaluate)(g["bet"], g["draws"])
        except (ValueError, TypeError, IndexError, KeyError) as e:
            o = None
            out.append("draws %s: %s" % (g["draws"], e))
        if o is not None:
            outcome(game, o, lang, out)
    if g.get("forfeit"):
        out.append("forfeit (s. 94): %s" % g["forfeit"])
    if g.get("prog"):
        out.append("progressive paid %d credits (instead of %d)" % (g["prog"][0], g["prog"][1]))
    return out


def outcome(game, o, lang, out):
    """What an outcome showed: keno's card, poker's deal, holds and hand, or the reels' window in the
    symbols' names, a row a line, with the wins and free spins."""
    w = o.window
    if hasattr(o, "results"):  # a table round: the stake, what it drew, each wager's result
        out.append("stake %s" % " ".join("%s=%d" % (k, o.stake[k]) for k in sorted(o.stake)) or "-")
        out.append("drawn %s" % " ".join("%s %s" % (k, w[k]) for k in sorted(w)))
        for r in o.results:
            out.append("%s %d: %s, returns %d%s" % (r[0], r[1], r[2], r[3], " (stands as %s)" % r[4] if r[4] else ""))
        return
    if hasattr(o, "decisions"):  # a card-table round (games/cardtable.py): its wins name wagers, not lines
        out.append("stake %s" % " ".join("%s=%d" % (k, o.stake[k]) for k in sorted(o.stake)))
        out.append("cards %s" % " ".join(w[0]))
        out.append("decisions %s" % (", ".join(game.DECISIONS[d] for d in o.decisions) or "-"))
        for k in sorted(o.wagered):
            out.append("%s %d: %s, returns %d" % (k, o.wagered[k], o.hands.get(k) or "-", o.returned[k]))
        return
    if isinstance(w, dict):  # keno
        out.append("picks %s" % " ".join(str(n) for n in w["picks"]))
        out.append("drawn %s" % " ".join(str(n) for n in w["drawn"]))
        out.append("caught %d: %s" % (len(w["hits"]), " ".join(str(n) for n in w["hits"]) or "-"))
        return
    if hasattr(game, "check_deck"):  # video poker
        from games.poker import card_name

        held = " ".join(card_name(o.deck[i]) for i in range(5) if o.holds >> i & 1)
        out.append("dealt %s, held %s" % (" ".join(card_name(c) for c in o.deck[:5]), held or "none"))
        name = game.m.names[o.award_index] if o.award_index >= 0 else None
        out.append("hand %s%s" % (" ".join(w[0]), ": " + name.get(lang, name["en"]) if name else ""))
        return
    for row in w:
        out.append(" | ".join(named(game, code, lang) for code in row))
    for line, pay, credits in o.wins:
        # line -1: the scatter; -2: a ways win (jeton-reels/3), no line
        where = "scatter" if line == -1 else "ways" if line == -2 else "line %d" % (line + 1)
        out.append("%s: %s pays %d" % (where, named(game, pay, lang), credits))
    if o.free:
        out.append("free spins: %d, paying %d" % (len(o.free), sum(f[2] for f in o.free)))


def progressive(game, p, st, lang, cents):
    """The progressive after the pay table: its amount now (linked: the controller's), what wins
    it, reset, rate, ceiling."""
    amount = p.feed.shown(p, st) if p.feed is not None else None
    if amount is None:
        amount = p.amount(st)
    ceiling = p.ceiling  # None: no ceiling (casino; refused under a prize limit)
    if lang == "fr":
        line = ("Progressif sur %s à la mise %d : %d crédits maintenant (%s); remis à %d, croît de %d/%d "
                "de chaque crédit misé à cette mise")
        cap = ", plafond %d"
    else:
        line = "Progressive on %s at bet %d: %d credits now (%s); reset %d, grows %d/%d of each credit wagered at that bet"
        cap = ", ceiling %d"
    return line % (named(game, p.pay, lang), p.bet, amount, dollars(amount * cents), p.reset, p.num,
                   p.den) + (cap % ceiling if ceiling else "")
