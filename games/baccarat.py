# Baccarat, Grand or Midi (by-law s. 27-37): a shoe of 6 to 8 decks (s. 27). Every round is dealt
# from a fresh shuffle of the whole shoe: the cards it needs are the first ones of a uniformly
# shuffled shoe, drawn one at a time by a partial Fisher-Yates over rng.below (the same law as
# rng.shuffle's whole shoe; only the positions it reaches are touched: a swap table of at most 12
# entries, not a 416-card list). The by-law shuffles at the stop card (s. 7-8); a fresh shoe every
# round is at least as random: no card seen in one round tells anything about the next.
# Cards are codes 0..52*decks-1: code % 52 = rank * 4 + suit (rank 0 = two ... 8 = ten, 9-11 = J, Q,
# K, 12 = ace; suits c, d, h, s), code // 52 its deck. Drawing rules: s. 37. Wagers: player, banker
# (with the s. 31 commission), tie (s. 29-36). play(gen, stake) deals, evaluate(stake, draws) replays,
# draws = the cards in the order dealt (player, banker, player, banker, then the third cards).
from games.limits import quote
from games.table_game import TableGame
from games.table_model import COMMISSION as COMM
from games.table_model import PAY, TableModel, ceil_div, is_int, need, ratio, win
from games.table_outcome import LOSE, PUSH, WIN, TableOutcome
from rng import below

FORMAT = "jeton-baccarat/1"
RANKS = "23456789TJQKA"
# s. 37, the bank's third card when the player drew one: bit v set = the bank hits on the player's third
# card of value v, for bank totals 3 to 6 (0-2 always hit, 7 stands)
BANK_HITS = (0x2FF, 0x0FC, 0x0F0, 0x0C0)
COMMISSION = [5, 100]  # s. 31: 5 % of the wager, on the next multiple of 10 when the wager is not one
COMMISSION_BASE = 10


def _bylaw():
    return {"player": ([1, 1], "s. 29, 33, 35"), "banker": ([1, 1], "s. 29, 31, 32, 35"),
            "tie": ([8, 1], "s. 29, 34, 36")}


class BaccaratModel(TableModel):
    def __init__(self, m, consume=False):
        TableModel.__init__(self, m, FORMAT, ("decks",), ("commission",), _bylaw(), consume)
        decks = m.get("decks")
        need(is_int(decks) and 6 <= decks <= 8, "decks must be 6 to 8 (s. 27)")
        self.decks = decks
        for wid in self.ids:
            w = self.wagers[wid]
            w[PAY] = ratio(self.raw[wid]["pays"], "wagers %s: pays" % wid)
            c = self.raw[wid].get("commission")
            if wid == "banker":
                need(c == COMMISSION, "wagers banker: commission %r, the by-law's is [5, 100] (5 %%, s. 31)" % (c,))
                w[COMM] = (COMMISSION[0], COMMISSION[1])
            else:
                need(c is None, "wagers %s: only the banker's wager pays a commission (s. 31, 35)" % quote(wid))
        self.done()


def value(card):
    """Baccarat value of a card code: face value, ten and court cards 0, ace 1 (s. 27)."""
    r = card % 52 >> 2
    return r + 2 if r < 8 else (1 if r == 12 else 0)


def card_name(card):
    c = card % 52
    return RANKS[c >> 2] + "cdhs"[c & 3]


def commission(credits):
    """The commission a winning banker wager of credits pays (s. 31, 35): 5 % of the wager, computed
    on the next multiple of 10 credits when it is not one, rounded up to a whole credit."""
    return ceil_div(ceil_div(credits, COMMISSION_BASE) * COMMISSION_BASE * COMMISSION[0], COMMISSION[1])


def bank_draws(bank, third):
    """s. 37: True when the bank, at two-card total bank, takes a third card; third is the value of the
    player's third card, or -1 when the player stood."""
    if bank <= 2:
        return True
    if bank >= 7:
        return False
    if third < 0:
        return bank <= 5
    return BANK_HITS[bank - 3] >> third & 1 == 1


def coup(values):
    """(cards dealt, player total, bank total) by the drawing rules of s. 37, for the values of the first
    cards of the shoe in order (at least as many as the coup needs: 6 always do)."""
    p = (values[0] + values[2]) % 10
    b = (values[1] + values[3]) % 10
    if p >= 8 or b >= 8:  # a natural: no more cards
        return 4, p, b
    n = 4
    third = -1
    if p <= 5:
        third = values[n]
        p = (p + third) % 10
        n += 1
    if bank_draws(b, third):
        b = (b + values[n]) % 10
        n += 1
    return n, p, b


class BaccaratGame(TableGame):
    kind = "cards"

    def __init__(self, model, consume=False):
        TableGame.__init__(self, BaccaratModel(model, consume), model)
        self.cards = 52 * self.m.decks
        self._pos = [0] * 12  # the partial shuffle's swap table: positions moved, and what they now hold
        self._val = [0] * 12

    def check_stake(self, stake, table=None):
        if table:
            raise ValueError("table: nothing stands between coups at baccarat")
        total = 0
        for key in self.keys(stake):
            if not isinstance(key, str):
                raise ValueError("stake: key %r is not a string" % (key,))
            self.credits(key, stake[key], key)
            total += stake[key]
        return total

    def risk(self, stake, table=None):
        return self.check_stake(stake)  # the commission comes out of a win, never on top of the stake

    # -- the deal ------------------------------------------------------------------------------------
    def play(self, gen, stake, table=None):
        self.check_stake(stake, table)
        n = self.cards
        pos = self._pos
        val = self._val
        used = [0]  # entries of the swap table in use
        dealt = []

        def card(i):
            # the i-th card of a uniformly shuffled shoe, given the first i: swap position i with a
            # position j >= i drawn by rng.below (Fisher-Yates), through the swap table
            j = i + below(gen, n - i)
            vj = _get(pos, val, used[0], j)
            vi = _get(pos, val, used[0], i)
            used[0] = _put(pos, val, used[0], j, vi)
            dealt.append(vj)
            return value(vj)

        values = [card(0), card(1), card(2), card(3)]
        p = (values[0] + values[2]) % 10
        b = (values[1] + values[3]) % 10
        if p < 8 and b < 8:
            third = -1
            if p <= 5:
                third = card(4)
            if bank_draws(b, third):
                card(len(dealt))
        return self.evaluate(stake, dealt, table)

    def evaluate(self, stake, draws, table=None):
        """The coup of a recorded deal: draws = the card codes in the order dealt, 4 to 6 of them, as
        many as the drawing rules of s. 37 take."""
        staked = self.check_stake(stake, table)
        if not isinstance(draws, list) or not 4 <= len(draws) <= 6:
            raise ValueError("draws: the 4 to 6 cards dealt, in order")
        for i in range(len(draws)):
            c = draws[i]
            if not is_int(c) or not 0 <= c < self.cards:
                raise ValueError("draws: card %r is not a card of a %d-deck shoe" % (c, self.m.decks))
            if c in draws[:i]:
                raise ValueError("draws: card %d dealt twice" % c)
        values = [value(c) for c in draws] + [0, 0]
        n, p, b = coup(values)
        if n != len(draws):
            raise ValueError("draws: %d cards, the drawing rules (s. 37) take %d" % (len(draws), n))
        results = [self.settle(key, stake[key], p, b) for key in self.keys(stake)]
        return TableOutcome(staked, stake, list(draws), results, None, _window(draws, values, p, b))

    def settle(self, key, c, p, b):
        """[key, credits, status, returned, None] of one wager on the coup's totals (s. 32-36)."""
        n, d = self.m.pay(key)
        if key == "tie":
            if p == b:
                return [key, c, WIN, win(c, n, d), None]
            return [key, c, LOSE, 0, None]
        if p == b:  # s. 36: a tie returns the player's and banker's wagers
            return [key, c, PUSH, c, None]
        if (key == "player") == (p > b):
            back = win(c, n, d)
            if key == "banker":
                back -= commission(c)  # s. 31, 35: collected only when the banker's hand wins
            return [key, c, WIN if back > c else PUSH, back, None]
        return [key, c, LOSE, 0, None]

    def selections(self, wid):
        self.m.wager(wid)
        return [wid]

    def most(self, stake, table=None):
        """The most this coup can return: the larger of a player win, a banker win and a tie."""
        self.check_stake(stake, table)
        best = 0
        for p, b in ((1, 0), (0, 1), (0, 0)):
            best = max(best, sum(self.settle(k, stake[k], p, b)[3] for k in self.keys(stake)))
        return best


def _player_drew(values):
    p = (values[0] + values[2]) % 10
    b = (values[1] + values[3]) % 10
    return p < 8 and b < 8 and p <= 5


def _window(draws, values, p, b):
    # which card went to which hand: the first four alternate; the player's third card comes first
    player = [draws[0], draws[2]]
    bank = [draws[1], draws[3]]
    i = 4
    if i < len(draws) and _player_drew(values):
        player.append(draws[i])
        i += 1
    if i < len(draws):
        bank.append(draws[i])
    return {"player": [card_name(c) for c in player], "banker": [card_name(c) for c in bank],
            "player_total": p, "banker_total": b, "winner": "tie" if p == b else ("player" if p > b else "banker")}


def _get(pos, val, used, x):
    for k in range(used):
        if pos[k] == x:
            return val[k]
    return x


def _put(pos, val, used, x, v):
    for k in range(used):
        if pos[k] == x:
            val[k] = v
            return used
    pos[used] = x
    val[used] = v
    return used + 1


def load(path):
    from games.model import read

    return BaccaratGame(read(path))
