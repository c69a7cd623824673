# One round of a table game (roulette, craps, sic bo, wheel of fortune, baccarat), with the reel
# Outcome's fields so the firmware's books, recall digest and sim.replay can treat it like the others
# (bet, draws, stops, window, wins, award, free, triggered). A round is a function of (stake, draws,
# table): play() draws, evaluate() replays, bit for bit.
WIN = "win"  # the wager won: its stake and its winnings (more than nothing) are returned
LOSE = "lose"  # the wager lost: nothing is returned
PUSH = "push"  # neither: the stake is returned
STAND = "stand"  # not decided this round: the wager stays on the table (under its next key)
RETURNED = "returned"  # taken down with nothing decided (a craps odds wager that was off): the stake is returned


class TableOutcome:
    __slots__ = ("bet", "stake", "draws", "results", "award", "table", "stops", "window", "wins", "free", "triggered")

    def __init__(self, staked, stake, draws, results, table, window):
        self.bet = staked  # credits this round took: the new wagers and any commission paid with them
        self.stake = stake  # {key: credits}: the wagers placed for this round
        self.draws = draws  # what the rng drew: the replay's input (pocket, dice, segment, cards)
        # [key, credits on it, status, credits returned, key it stands under next or None], by key
        self.results = results
        award = 0
        wins = []
        for r in results:
            if r[2] == WIN and r[3] <= r[1]:
                r[2] = PUSH  # a win that rounds to nothing returns the stake: a push
            if r[3]:
                award += r[3]
                wins.append([r[0], r[2], r[3]])
        self.award = award  # credits returned this round: stakes back on wins and pushes, and winnings
        self.wins = wins
        self.table = table  # the wagers left standing ({key: credits}, craps {"point", "bets"}), or None
        self.stops = draws
        self.window = window  # what the screen shows: the pocket, the dice, the segment, the cards
        self.free = []
        self.triggered = 0

    def to_dict(self):
        return {"bet": self.bet, "stake": self.stake, "draws": self.draws, "results": self.results,
                "award": self.award, "table": self.table, "window": self.window}


def sorted_keys(stake, what="stake"):
    """The keys of a stake {key: credits}, sorted (a round settles its wagers in one order on every
    runtime); ValueError when stake is not such an object."""
    if not isinstance(stake, dict):
        raise ValueError("%s: an object {wager: credits}" % what)
    return sorted(stake)
