# Credits, soft meters, game recall and the event log, all in journaled critical memory.
#
# Meters, in credits, with their industry meanings:
#   coin_in      credits wagered              coin_out     credits won onto the credit meter
#   jackpot      wins paid by hand (lockup)   acceptor_in  credits from the coin acceptor
#   hopper_out   credits paid by the hopper   cancelled    cash-outs paid by hand (cancelled credits)
#   cashout      all credits paid at cash-out (hopper_out + cancelled)
#   refunds      wagers refunded on a machine fault (s. 95)
#   games_played, games_won, power_resets, door_main/door_logic/door_cashbox (opens),
#   progressive_paid, tournament_entries (count), tournament_fees (credits paid as entry fees),
#   tournament_prizes (credits paid as tournament prizes, by hand)
# Self-audit before every play and payout:
#   credits == acceptor_in + coin_out + refunds - coin_in - cashout - tournament_fees
#   cashout == hopper_out + cancelled
# A game is two commits: the wager (phase "wager"), then outcome, award and its recall record
# (phase "done"). Nothing is displayed before its commit.
import json
import time

from firmware import eventlog, tournament
from firmware.critmem import CriticalMemory
from firmware.recall import digest

METERS = ("coin_in", "coin_out", "jackpot", "acceptor_in", "hopper_out", "cancelled", "cashout", "refunds",
          "games_played", "games_won", "power_resets", "door_main", "door_logic", "door_cashbox",
          "progressive_paid", "tournament_entries", "tournament_fees", "tournament_prizes")
METER_MODULO = 10 ** 10  # 10-digit meters roll over to 0, as electromechanical counters do
RECALL = 10  # games kept for recall
EVENTS_PER_CHUNK = eventlog.PER_CHUNK  # fixed-size records (firmware/eventlog.py): a chunk always fits
EVENT_CHUNKS = 14  # a chunk is recycled whole: 13 x 8 keeps at least the last 100
STATE_SIZE = 2304  # the worst case of every field at its bound fits (tests/device/test_firmware_sizes.py)
GAME_SIZE = 1536
CHUNK_SIZE = eventlog.CHUNK_BYTES
TILT_TEXT = eventlog.TEXT  # a persisted tilt's reason, cut on entry: the state block's size is bounded
HOPPER_SIZE = 384  # the hopper driver's payout record (board/hopper_cctalk.py)
EM_SIZE = 256  # electromechanical meters: [done, inflight] per coil (board/meters_em.py)
LAYOUT = (("state", STATE_SIZE),) + tuple(("g%d" % i, GAME_SIZE) for i in range(RECALL)) + \
    tuple(("e%d" % i, CHUNK_SIZE) for i in range(EVENT_CHUNKS)) + (("hop", HOPPER_SIZE), ("em", EM_SIZE))
JOURNAL = STATE_SIZE + GAME_SIZE + CHUNK_SIZE  # the largest transaction: state + game + event chunk


class AuditError(Exception):
    pass


def _now():
    return int(time.time())


def open_memory(nvram):
    return CriticalMemory(nvram, LAYOUT, JOURNAL)


class Ledger:
    def __init__(self, memory):
        self.mem = memory
        self.st = None

    # --- persistence -----------------------------------------------------------------------------
    def initial(self):
        meters = {}
        for name in METERS:
            meters[name] = 0
        return {"m": meters, "credits": 0, "bet": 0, "game": None, "lock": None, "ev": 0, "gn": 0, "tilts": {}}

    def open(self):
        """Load critical memory (RamError when unrecoverable). Returns what had to be repaired."""
        if not self.mem.open():
            self.format()
            return ["blank memory formatted"]
        self.st = json.loads(self.mem.read("state"))
        for name in METERS:  # meters added by a newer firmware start at zero
            self.st["m"].setdefault(name, 0)
        return self.mem.findings

    def format(self, first_event=None):
        """Fresh books. first_event (code, text), e.g. the RAM clear itself, is written in the same
        transaction: memory is never cleared without the record that says so. The hard meters'
        known positions survive: a counter on the cabinet cannot go back to zero, so the new soft
        meters count on from where each coil stands (st["emb"])."""
        em = self.mem.salvage("em")
        self.st = self.initial()
        blocks = {}
        for name, _ in LAYOUT[1:]:
            blocks[name] = b""
        if em:
            try:
                em_state = json.loads(em)
                base = {}
                for coil in em_state:
                    base[coil] = em_state[coil][0]  # strokes completed; one in flight is driven again
                    em_state[coil][1] = 0
                self.st["emb"] = base
                blocks["em"] = json.dumps(em_state).encode()
            except (ValueError, TypeError, KeyError, IndexError):
                pass  # unreadable: the positions are not known
        if first_event:
            self.st["ev"] = 1
            blocks["e0"] = eventlog.pack(b"", 1, _now(), first_event[0], first_event[1])
        blocks["state"] = self._state_bytes()
        self.mem.format(blocks)

    def _state_bytes(self):
        return json.dumps(self.st).encode()

    def _commit(self, extra=None):
        blocks = {"state": self._state_bytes()}
        if extra:
            for k in extra:
                blocks[k] = extra[k]
        self.mem.commit(blocks)

    # --- accessors ---------------------------------------------------------------------------------
    @property
    def meters(self):
        return self.st["m"]

    @property
    def credits(self):
        return self.st["credits"]

    @property
    def bet(self):
        return self.st["bet"]

    @property
    def game(self):
        return self.st["game"]

    @property
    def lock(self):
        return self.st["lock"]

    def set_bet(self, bet):
        self.st["bet"] = bet  # kept in RAM; persisted with the next commit

    @property
    def tilts(self):
        """Tilts that need an attendant or a technician: {kind: reason}, kept across power loss."""
        return self.st.setdefault("tilts", {})

    def tilt(self, kind, why):
        """Record a tilt and its event in one commit: a power cycle never clears it."""
        self.tilts[kind] = eventlog.clean(why, TILT_TEXT)
        self.event("tilt", "%s: %s" % (kind, why))

    def clear_tilt(self, kind, code="tilt-clear"):
        if self.tilts.pop(kind, None) is not None:
            self.event(code, kind)

    def em_base(self):
        """Hard meter positions at the last RAM clear: {coil: strokes} (added to the soft meters)."""
        return self.st.get("emb") or {}

    # --- money -------------------------------------------------------------------------------------
    def _add(self, meter, n):
        self.st["m"][meter] = (self.st["m"][meter] + n) % METER_MODULO

    def audit(self):
        m = self.st["m"]
        expect = (m["acceptor_in"] + m["coin_out"] + m["refunds"] - m["coin_in"] - m["cashout"]
                  - m["tournament_fees"]) % METER_MODULO
        if self.st["credits"] % METER_MODULO != expect:
            raise AuditError("credits %d but meters say %d" % (self.st["credits"], expect))
        if m["cashout"] != (m["hopper_out"] + m["cancelled"]) % METER_MODULO:
            raise AuditError("cashout %d != hopper %d + hand-paid %d" % (m["cashout"], m["hopper_out"], m["cancelled"]))

    def power_up(self, why="power up"):
        self._add("power_resets", 1)
        self.event("power", why)

    def accept(self, credits, counter=None):
        """Credit coins, committing the acceptor's event counter with them: after a restart the
        acceptor's buffered events past that counter are read again and credited exactly once."""
        self._add("acceptor_in", credits)
        self.st["credits"] += credits
        if counter is not None:
            self.st["acc_ev"] = counter
        self._commit()

    @property
    def acceptor_counter(self):
        return self.st.get("acc_ev")

    def door(self, name, opened, levels=None):
        """A door opened or closed: meter, event and the switch levels (for the next boot's check)."""
        if opened:
            self._add(name, 1)
        if levels is not None:
            self.st["doors"] = levels
        self.event("door", "%s %s" % (name, "open" if opened else "closed"))

    def wager(self, bet, progressive=None, game_id=None):
        """Commit the wager (and its progressive contribution); the outcome comes from settle().
        No credit is ever extended (s. 5). game_id: the game that must complete it after a cut."""
        g = self.st["game"]
        if g and g["phase"] == "wager":
            raise AuditError("a game is already in progress")
        session = self.session
        if session is not None:
            return self._tour_wager(session, bet, game_id)
        if bet > self.st["credits"]:
            raise ValueError("bet %d exceeds credits %d" % (bet, self.st["credits"]))
        self.audit()
        self.mem.verify()
        before = self.st["credits"]
        self.st["credits"] -= bet
        self._add("coin_in", bet)
        self._add("games_played", 1)
        if progressive is not None:
            progressive.contribute(self.st, bet)
        self.st["game"] = {"phase": "wager", "bet": bet, "before": before, "t": _now(), "id": game_id}
        self._commit()

    def settle(self, outcome, game_id, jackpot_limit=0, progressive=None, spin=False):
        """Commit the outcome and its recall record, before anything is displayed.

        spin=False: the award is concluded in the same commit. spin=True: the award stays pending
        (phase "spin", in neither credits nor coin_out) while the reels turn, and conclude() pays it
        or, when the player disrupted the machine meanwhile, forfeits it (s. 94).
        """
        g = self.st["game"]
        if not g or g["phase"] != "wager" or g["bet"] != outcome.bet:
            raise AuditError("no matching wager to settle")
        if g.get("tour"):
            return self._tour_settle(g, outcome, game_id)
        n = self.st["gn"]
        self.st["gn"] = n + 1
        slot = n % RECALL
        rec = {"n": n + 1, "t": g["t"], "id": game_id, "bet": g["bet"], "before": g["before"],
               "after": None, "win": outcome.award, "hand": False, "draws": outcome.draws,
               "h": digest(outcome)}
        fixed = progressive.hit(outcome) if progressive is not None else 0
        self.st["game"] = {"phase": "spin", "bet": g["bet"], "award": outcome.award, "fixed": fixed,
                           "limit": jackpot_limit, "slot": slot}
        if spin:
            self._commit({"g%d" % slot: json.dumps(rec).encode()})
        else:
            self.conclude(progressive, rec=rec)
        self.mem.verify()

    def conclude(self, progressive=None, forfeit=None, rec=None):
        """End the game whose reels are turning: pay its award (onto credits, or locked for a hand
        pay at or above its jackpot limit; a progressive hit replaces its fixed award and is always
        hand-paid), or with forfeit=reason withhold it: the player disrupted the machine (s. 94),
        the wager is not refunded. One commit with the completed recall record."""
        g = self.st["game"]
        if not g or g["phase"] != "spin":
            return None
        slot = "g%d" % g["slot"]
        if rec is None:
            rec = json.loads(self.mem.read(slot))
        award = g["award"]
        hand = False
        if forfeit:
            rec["forfeit"] = eventlog.clean(forfeit, eventlog.TEXT)  # bounded: the record always fits
        else:
            if g["fixed"] and progressive is not None:
                prog = progressive.won(self.st)
                award = award - g["fixed"] + prog
                self._add("progressive_paid", prog)
                rec["prog"] = [prog, g["fixed"]]  # the progressive paid, and the fixed award it replaced
                hand = True
            if award:
                self._add("games_won", 1)
            hand = hand or bool(g["limit"] and award >= g["limit"])
            if hand:
                self.st["lock"] = {"kind": "jackpot", "amount": award}
            else:
                self.st["credits"] += award
                self._add("coin_out", award)
        rec["after"] = self.st["credits"]
        rec["win"] = award
        rec["hand"] = hand
        self.st["game"] = {"phase": "done", "bet": g["bet"], "award": 0 if forfeit else award, "slot": g["slot"]}
        extra = {slot: json.dumps(rec).encode()}
        if forfeit:
            self.event("forfeit", "%s: award %d withheld (s. 94)" % (forfeit, award), extra)
        else:
            self._commit(extra)
        return award

    # --- tournament mode (s. 123-127) -----------------------------------------------------------------
    @property
    def tour(self):
        return self.st.get("tour")

    @property
    def session(self):
        t = self.st.get("tour")
        return t["session"] if t else None

    @property
    def play_credits(self):
        """What the player bets with: tournament credits during an entry, else the credit meter."""
        s = self.session
        return s["credits"] if s else self.st["credits"]

    def tour_start(self, fee, credits, games, pct, date, hours, name="", shares=(50, 30, 20)):
        if self.st.get("tour"):
            raise tournament.TournamentError("a tournament is already running")
        self.st["tour"] = tournament.new(fee, credits, games, pct, date, hours, name, shares)
        self.event("tournament", "started %s %s %dh: fee %d, %d credits, %d games, prizes %d %%" % (
            name, date, hours, fee, credits, games, pct))

    def tour_enter(self):
        """The entry fee comes off the credit meter (money), tournament credits are issued."""
        t = self.st["tour"]
        if t["session"] is not None:
            raise tournament.TournamentError("an entry is being played")
        if self.st["credits"] < t["fee"]:
            raise ValueError("entry fee %d exceeds credits %d" % (t["fee"], self.st["credits"]))
        self.audit()
        self.st["credits"] -= t["fee"]
        self._add("tournament_fees", t["fee"])
        self._add("tournament_entries", 1)
        t["entries"] += 1
        t["fees"] += t["fee"]
        t["session"] = {"entry": t["entries"], "credits": t["credits"], "left": t["games"]}
        self._commit()

    def _tour_wager(self, session, bet, game_id):
        if bet > session["credits"] or session["left"] <= 0:
            raise ValueError("bet %d exceeds tournament credits %d" % (bet, session["credits"]))
        self.st["game"] = {"phase": "wager", "bet": bet, "before": session["credits"], "t": _now(), "tour": 1,
                           "id": game_id}
        session["credits"] -= bet
        session["left"] -= 1
        self._add("games_played", 1)  # a tournament game is a game: counted, and on the hard meter
        self._commit()

    def _tour_settle(self, g, outcome, game_id):
        t = self.st["tour"]
        session = t["session"]
        session["credits"] += outcome.award
        n = self.st["gn"]
        self.st["gn"] = n + 1
        rec = {"n": n + 1, "t": g["t"], "id": game_id, "bet": g["bet"], "before": g["before"],
               "after": session["credits"], "win": outcome.award, "hand": False, "draws": outcome.draws,
               "h": digest(outcome), "tour": session["entry"]}
        self.st["game"] = {"phase": "done", "bet": g["bet"], "award": outcome.award, "slot": n % RECALL}
        extra = {"g%d" % (n % RECALL): json.dumps(rec).encode()}
        if session["left"] <= 0 or session["credits"] <= 0:
            tournament.record_score(t, session["entry"], session["credits"])
            t["session"] = None
            self.event("tour-score", "entry %d scored %d" % (session["entry"], session["credits"]), extra)
        else:
            self._commit(extra)

    def tour_end(self):
        """Close the tournament: prizes (>= 30 % of fees, s. 127) are paid by hand and metered."""
        t = self.st.get("tour")
        if not t:
            raise tournament.TournamentError("no tournament running")
        if t["session"] is not None:
            raise tournament.TournamentError("an entry is still being played")
        prizes = tournament.allocate(t)
        paid = 0
        for entry, score, prize in prizes:
            paid += prize
        self._add("tournament_prizes", paid)
        self.st["tour"] = None
        self.event("tour-end", "%d entries, fees %d, prizes %d: %s" % (
            t["entries"], t["fees"], paid, ", ".join("#%d %d" % (e, p) for e, _, p in prizes)))
        return prizes

    def void(self, why):
        """s. 95: the machine failed during the game, not the player: the wager is refunded."""
        g = self.st["game"]
        if not g or g["phase"] != "wager":
            return 0
        bet = g["bet"]
        if g.get("tour"):  # a tournament game: its tournament credits and its game come back
            session = self.st["tour"]["session"]
            session["credits"] += bet
            session["left"] += 1
            self.st["game"] = {"phase": "void", "bet": bet, "award": 0}
            self.event("void", "%s: tournament game refunded" % why)
            return bet
        self.st["credits"] += bet
        self._add("refunds", bet)
        self.st["game"] = {"phase": "void", "bet": bet, "award": 0}
        self.event("void", "%s: wager %d refunded" % (why, bet))
        return bet

    def cashout(self, hand_pay):
        """Start a cash-out. With hand_pay the machine locks until an attendant pays; otherwise the
        caller pays through the hopper and calls paid_by_hopper() as coins go out."""
        self.audit()
        amount = self.st["credits"]
        if amount and hand_pay:
            self.st["lock"] = {"kind": "handpay", "amount": amount}
            self.event("handpay", "cash-out of %d credits by hand" % amount)
        return amount

    # --- hopper payouts --------------------------------------------------------------------------------
    # The hopper driver's record and the ledger's "paying" mark are saved in ONE transaction, and
    # the final result clears both in ONE transaction: after any restart either the payout is still
    # open (the driver finishes or proves it) or it is booked, never both, never twice.
    @property
    def paying(self):
        return self.st.get("paying")

    def start_payout(self, coins, credits_per_coin):
        """Mark a hopper cash-out in RAM; it reaches NVRAM with the driver's first record save."""
        self.audit()
        ref = self.st.get("ref", 0) + 1
        self.st["ref"] = ref
        self.st["paying"] = {"ref": ref, "coins": coins, "cpc": credits_per_coin}
        return ref

    def abandon_payout(self):
        self.st["paying"] = None

    def hopper_record(self):
        raw = self.mem.read("hop")
        return json.loads(raw) if raw else None

    def save_hopper_record(self, rec):
        if rec is None and not self.mem.read("hop"):
            return  # already cleared by the booking commit
        self._commit({"hop": json.dumps(rec).encode() if rec else b""})

    def book_payout(self, ref, paid, unpaid, uncertain=False):
        """The hopper's final result for payout `ref`: coins paid leave the credit meter; coins not
        paid stay as credits, or (uncertain) lock the machine for an attendant's hand pay."""
        p = self.st.get("paying")
        if not p or p["ref"] != ref:
            return False  # booked before a restart: nothing to do twice
        cpc = p["cpc"]
        self.st["credits"] -= paid * cpc
        self._add("hopper_out", paid * cpc)
        self._add("cashout", paid * cpc)
        self.st["paying"] = None
        if uncertain and unpaid:
            self.st["lock"] = {"kind": "handpay", "amount": unpaid * cpc}
        self.event("payout", "hopper paid %d coins, %d %s" % (
            paid, unpaid, "uncertain: hand pay" if uncertain else "unpaid"), {"hop": b""})
        return True

    # --- electromechanical meters --------------------------------------------------------------------
    def em_state(self):
        raw = self.mem.read("em")
        return json.loads(raw) if raw else None

    def save_em_state(self, state):
        self.mem.commit({"em": json.dumps(state).encode()})  # the em block alone: a few hundred bytes

    def clear_lock(self):
        """Attendant key: the hand pay shown on the lock has been paid."""
        lock = self.st["lock"]
        if not lock:
            return None
        if lock["kind"] == "handpay":
            self.st["credits"] -= lock["amount"]
            self._add("cancelled", lock["amount"])
            self._add("cashout", lock["amount"])
        elif lock["kind"] == "jackpot":
            self._add("jackpot", lock["amount"])
        self.st["lock"] = None
        self.event("handpaid", "%s of %d credits paid by attendant" % (lock["kind"], lock["amount"]))
        return lock

    # --- event log and recall ------------------------------------------------------------------------
    def event(self, code, text="", extra=None):
        """Append a timestamped event (the log keeps at least the last 100) in the same commit as
        the state (and any extra blocks). The text is cut to what a record holds on entry."""
        n = self.st["ev"]
        self.st["ev"] = n + 1
        name = "e%d" % ((n // EVENTS_PER_CHUNK) % EVENT_CHUNKS)
        chunk = self.mem.read(name) if n % EVENTS_PER_CHUNK else b""
        blocks = dict(extra) if extra else {}
        blocks[name] = eventlog.pack(chunk, n + 1, _now(), code, text)
        self._commit(blocks)

    def event_chunks(self):
        """Names of the event chunks in use, oldest first: a log streamed one chunk at a time."""
        n = self.st["ev"]
        if not n:
            return []
        last = (n - 1) // EVENTS_PER_CHUNK
        out = []
        for k in range(max(0, last - EVENT_CHUNKS + 1), last + 1):
            out.append("e%d" % (k % EVENT_CHUNKS))
        return out

    def chunk_events(self, name):
        return eventlog.unpack(self.mem.read(name))

    def events(self):
        out = []
        for name in self.event_chunks():
            out.extend(self.chunk_events(name))
        return out

    def recall_blocks(self):
        """Names of the recall blocks in use, oldest game first (one record parsed at a time)."""
        order = []
        for i in range(RECALL):
            raw = self.mem.read("g%d" % i)
            if raw:
                order.append((json.loads(raw)["n"], "g%d" % i))
        order.sort()
        return [name for _, name in order]

    def recall(self):
        """The last games, oldest first, as recorded."""
        out = []
        for i in range(RECALL):
            raw = self.mem.read("g%d" % i)
            if raw:
                out.append(json.loads(raw))
        out.sort(key=lambda r: r["n"])
        return out

    def snapshot(self):
        d = dict(self.st["m"])
        d["credits"] = self.st["credits"]
        return d
