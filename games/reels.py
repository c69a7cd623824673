# Reel game engine: RNG draws -> reel stops -> window -> award. Pure logic: no hardware, no NVRAM.
import json

from rng import weighted


class Outcome:
    __slots__ = ("bet", "draws", "stops", "window", "wins", "award")

    def __init__(self, bet, draws, stops, window, wins, award):
        self.bet = bet
        self.draws = draws  # every RNG result used, in order: enough to replay the game
        self.stops = stops
        self.window = window  # window[row][reel] symbol names
        self.wins = wins  # list of (line index, pay name, credits)
        self.award = award  # credits won, total

    def to_dict(self):
        return {"bet": self.bet, "draws": self.draws, "stops": self.stops,
                "window": self.window, "wins": self.wins, "award": self.award}


class ReelGame:
    def __init__(self, model):
        self.model = model
        self.id = model["id"]
        self.name = model["name"]
        self.bets = model["bets"]
        self.reels = model["reels"]
        self.rows = model.get("rows", 1)
        self.lines = model["lines"]
        self.pays = model["pays"]
        self.wild = model.get("wild")

    def stops_from_draws(self, draws):
        return list(draws)  # weighted() already returned the stop index per reel

    def window(self, stops):
        rows = []
        for r in range(self.rows):
            row = []
            for reel, stop in zip(self.reels, stops):
                strip = reel["strip"]
                row.append(strip[(stop + r - self.rows // 2) % len(strip)])
            rows.append(row)
        return rows

    def line_pay(self, symbols, bet):
        # pays are listed best first: the first that matches is the only win on the line
        for pay in self.pays:
            if _match(pay["symbols"], symbols, self.wild):
                return pay["name"], pay["pay"][self.bets.index(bet)]
        return None, 0

    def evaluate(self, bet, draws):
        stops = self.stops_from_draws(draws)
        win = self.window(stops)
        wins = []
        award = 0
        for i, line in enumerate(self.lines):
            name, credits = self.line_pay([win[row][reel] for reel, row in enumerate(line)], bet)
            if credits:
                wins.append((i, name, credits))
                award += credits
        return Outcome(bet, draws, stops, win, wins, award)

    def play(self, gen, bet):
        if bet not in self.bets:
            raise ValueError("bet %r not offered" % bet)
        draws = [weighted(gen, reel["weights"]) for reel in self.reels]
        return self.evaluate(bet, draws)


def _match(pattern, symbols, wild):
    for want, got in zip(pattern, symbols):
        if want == "*":
            continue
        if isinstance(want, list):
            if got not in want and got != wild:
                return False
        elif got != want and got != wild:
            return False
    return True


def load(path):
    with open(path) as f:
        return ReelGame(json.load(f))
