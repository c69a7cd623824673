"""The fuzz campaign's oracle: the test's own model of what the outside world saw (`Truth`), and the
invariants, each a function of observations (meters, screen, console lines, what the peers did)
that raises a `Violation` or returns. No function here talks to the firmware: the rules
(sim/fuzz/rules.py) observe and call them, and tests/host/test_fuzz_oracle.py calls them on
observations written by hand.

Truth comes from the peers, never from the firmware's own arithmetic: the tokens the acceptor
validated, the notes in the validator's stacker, the coins that left the hopper, the coupons on the
printer's paper, the locks the attendant's key cleared.
"""
from __future__ import annotations

from typing import Callable

from firmware import states
from firmware.cabinet import HARD_METERS

DUPLICATE = "*** DUPLICATA / DUPLICATE ***"  # firmware/coupon.py: the mark of a reprint
RESET_EXIT = 75  # board/emulated.py RESET_EXIT: the board asked for a reset
# states where a cash-out press is not carried out at once, read from the firmware's own state
# table (firmware/states.py): refused (a RAM error) or kept until the game, payout or lock ends
CASHOUT_WAITS = tuple(s for s in states.STATES if states.action(s, states.CASHOUT) in (None, "keep_cashout"))
# tilts that need the attendant: a power cycle must not clear them (the rng tilt clears itself once a
# fresh generator passes its start-up tests)
KEY_TILTS = ("acceptor", "fraud", "hopper")
# tilts a correct firmware never reaches in these sequences: its own books disagree
NEVER_TILTS = ("audit", "meter", "prize")  # prize: the settlement's guard, which a certified game never trips
MONEY = ("acceptor_in", "bill_in", "coin_in", "coin_out", "refunds", "cashout", "hopper_out", "cancelled", "jackpot",
         "tournament_fees", "tournament_prizes", "progressive_paid", "tournament_entries", "games_played")
# steps that move no money: credits change only through a coin, a settled game, a payout or a refund
QUIET = ("console_read", "console_garbage", "console_privileged", "test_games", "switch", "hopper_fault", "acceptor",
         "tokens", "printer", "coupons_ack", "validation")
PLAYERS = ("player", "player_again", "hand")  # rules that press play (or deal, draw): each plays at most one game


class Violation(AssertionError):
    """An invariant broken: its kind (the name of the check) and what was seen. `figures` are the
    campaign's figures it adds to (a board reset, a crash loop) besides `violations`."""

    def __init__(self, kind: str, text: str, figures: tuple[str, ...] = ()):
        super().__init__(f"{kind}: {text}")
        self.kind = kind
        self.figures = figures


class Truth:
    """What the outside world knows, counted from the peers, since the last RAM clear (and, for the
    peers counted in money, the last change of the credit value: `*_credits` the meter then)."""

    def __init__(self) -> None:
        self.coins_low = 0  # credits of the tokens the acceptor validated (events the firmware can read)
        self.coins_high = 0  # and of the coins whose events left the acceptor's buffer unread
        self.hopper_base = 0  # hopper coins out at the base
        self.hopper_credits = 0  # hopper_out then
        self.bill_base = 0  # cents of the notes stacked by the validator at the base
        self.bill_credits = 0  # bill_in then
        self.ticket_base = 0  # tickets the printer had printed at the last RAM clear
        self.old_coupons: set[str] = set()  # control numbers kept from before the last RAM clear (they print
        # after it when owed, and never repeat: firmware/coupon_store.py), not counted against these books
        self.meter_base: dict[str, int] = {}  # EM counts at the last RAM clear
        self.meters: dict | None = None  # the last meters read

    def rebase(self, m: dict, hopper_coins: int, stacker_cents: int) -> None:
        """From here on the peers' coins and notes are worth another number of credits each."""
        self.hopper_base, self.hopper_credits = hopper_coins, m["hopper_out"]
        self.bill_base, self.bill_credits = stacker_cents, m["bill_in"]


# --- the firmware process ------------------------------------------------------------------------------
def process(restarts: list[str], status: int | None, step: str, tail: list[str]) -> None:
    """The process is alive: not ended on its own (a board reset is exit status 75), no supervisor
    restart, never two in one step (a crash loop). `restarts`: the restart lines printed in the step."""
    if status is not None:  # not killed by us: it ended on its own
        if status == RESET_EXIT:
            figures = ("board_resets", "crash_loops") if len(restarts) >= 2 else ("board_resets",)
            raise Violation("board_reset", f"exit status 75 after {step}: {tail}", figures)
        raise Violation("died", f"exit status {status} after {step}: {tail}")
    if len(restarts) >= 2:
        raise Violation("crash_loop", f"{len(restarts)} restarts in one step ({step}): {restarts}", ("crash_loops",))
    if restarts:
        raise Violation("restart", f"after {step}: {restarts} {tail}")


def no_boot(status: int | None, why: str) -> Violation:
    """A power-up that never reached its ready line."""
    if status == RESET_EXIT:
        return Violation("crash_loop", f"no boot, board reset (status 75): {why}", ("board_resets", "crash_loops"))
    return Violation("no_boot", why)


# --- tilts ---------------------------------------------------------------------------------------------
def tilt_kinds(state_lines: list[str]) -> set[str]:
    """The tilts the console's `state` lists ('tilt KIND: reason')."""
    return {ln[5:].split(":")[0] for ln in state_lines if ln.startswith("tilt ")}


def tilts(state_lines: list[str], before: set[str], step: str, keyed: bool) -> set[str]:
    """No tilt that says the firmware's own books disagree; after a power step in which the
    attendant's key was not turned, every tilt that needs the key is still there. Returns the tilts."""
    now = tilt_kinds(state_lines)
    bad = now & set(NEVER_TILTS)
    if bad:
        raise Violation("tilt", f"{sorted(bad)} after {step}: {state_lines}")
    if step == "power" and not keyed:
        lost = (before & set(KEY_TILTS)) - now
        if lost:
            raise Violation("tilt_forgotten", f"{sorted(lost)} cleared by a power cycle, no key: {state_lines}")
    return now


def lock(state_lines: list[str]) -> tuple[str, int] | None:
    """The lock the console's `state` names ('lock: KIND AMOUNT credits ...'), if any."""
    for ln in state_lines:
        if ln.startswith("lock: "):
            kind, amount = ln[6:].split()[:2]
            return kind, int(amount)
    return None


# --- money ---------------------------------------------------------------------------------------------
def money(m: dict, truth: Truth, stacker_cents: int, denom_cents: int, coin_cents: int, hopper_out_coins: int,
          hopper_remaining: int, step: str, hand_paid: int, plays: int, note: dict | None = None) -> int:
    """Both money identities; acceptor_in within what the acceptor validated; bill_in the notes the
    stacker took (`note`: one of unknown fate standing); hopper_out the coins that left the hopper
    (judged once it has run dry; coins of `coin_cents`); no meter down; no money moved by a quiet
    step; hand pays exactly the locks the key cleared; a press of play plays at most one game.
    Returns the games played since the last meters read."""
    t = truth
    ident = (m["acceptor_in"] + m["bill_in"] + m.get("ticket_in", 0) + m["coin_out"] + m["refunds"] - m["coin_in"]
             - m["cashout"] - m["tournament_fees"])
    if m["credits"] != ident:
        raise Violation("identity", f"credits {m['credits']} != {ident} from the meters {m}")
    if m["cashout"] != m["hopper_out"] + m["cancelled"] + m["coupon_out"]:  # a vlt pays by coupon
        raise Violation("identity", f"cashout {m['cashout']} != hopper_out + cancelled + coupon_out {m}")
    if not t.coins_low <= m["acceptor_in"] <= t.coins_high:
        raise Violation("coins", f"acceptor_in {m['acceptor_in']}: the acceptor validated {t.coins_low} credits of "
                                 f"coins (up to {t.coins_high} with those it lost unread) after {step}")
    # credited exactly once: the validator's stacker is the truth
    bills_in(m, t.bill_credits + (stacker_cents - t.bill_base) // denom_cents, note, step)
    paid = hopper_out_coins - t.hopper_base
    if hopper_remaining == 0 and m["hopper_out"] != t.hopper_credits + paid * (coin_cents // denom_cents):
        raise Violation("hopper", f"hopper paid {paid} coins, hopper_out {m['hopper_out']} after {step}")
    prev = t.meters
    if prev is None:
        return 0
    down = {k: (prev[k], m[k]) for k in prev if k != "credits" and m.get(k, 0) < prev[k]}
    if down:
        raise Violation("meters", f"meters went down after {step}: {down}")
    moved = {k for k in MONEY if k != "acceptor_in" and m[k] != prev[k]}
    if step in QUIET and moved:
        raise Violation("credits", f"{step} moved {sorted(moved)}: {prev} -> {m}")
    hand = m["cancelled"] + m["jackpot"] - prev["cancelled"] - prev["jackpot"]
    if step != "power" and hand != hand_paid:
        raise Violation("hand_pay", f"the attendant cleared {hand_paid} by hand, meters moved {hand}")
    played = m["games_played"] - prev["games_played"]
    if step in PLAYERS and played > plays:
        raise Violation("game", f"{plays} presses of play played {played} games")
    return max(0, played)


# --- coupons (vlt) -------------------------------------------------------------------------------------
def paper(tickets: list[tuple[str | None, list[str]]], old_coupons: set[str], step: str) -> dict[str, int]:
    """Control number -> credits of every coupon on the printer's paper since the last RAM clear
    (`tickets`: (number, lines) of each): a ticket that carries its number (finished, or stopped
    after it), but those kept from before the clear. The same number printed again (after a cut or
    a fault) is the same coupon; a DUPLICATE is a violation (no reprint under vlt)."""
    out: dict[str, int] = {}
    for number, lines in tickets:
        if DUPLICATE in lines:  # a VLT never prints a coupon again (jurisdiction profile "reprint")
            raise Violation("coupons", f"a DUPLICATE of {number} printed under vlt after {step}")
        if number is None or number in old_coupons:
            continue
        k = [int(line.split()[-1]) for line in lines if line.startswith("Credits: ")]
        if number in out and k and out[number] != k[0]:
            raise Violation("coupons", f"control number {number} on paper for {out[number]} and {k[0]} "
                                       f"credits after {step}")
        out[number] = k[0] if k else 0
    return out


def coupons(m: dict, recs: list[dict], on_paper: dict[str, int], old_coupons: set[str], step: str) -> None:
    """Under vlt, credits in = credits played - won + cashed out + left on the meter, where what
    left by coupon is read from the paper (plus the one coupon owed: committed, not yet on it),
    never from the firmware's coupon_out; each number on paper is worth what its record says.
    `recs`: `coupons json` read before the paper (a coupon may finish in between)."""
    owed = recs[-1] if recs and recs[-1]["st"] == "owed" and recs[-1]["n"] not in old_coupons else None
    total = sum(on_paper.values()) + (owed["k"] if owed and owed["n"] not in on_paper else 0)
    money_in = m["acceptor_in"] + m["bill_in"] + m.get("ticket_in", 0)
    out = (m["coin_in"] - m["coin_out"] - m["refunds"] + m["tournament_fees"] + m["hopper_out"]
           + m["cancelled"] + total + m["credits"])
    if money_in != out:
        raise Violation("coupons", f"credits in {money_in} != played - won + cashed out + on the meter {out} with "
                                   f"{total} credits of coupons on paper or owed ({len(on_paper)} numbers; "
                                   f"coupon_out {m['coupon_out']}) after {step}")
    for r in recs:
        if r["n"] in on_paper and on_paper[r["n"]] != r["k"]:
            raise Violation("coupons", f"coupon {r['s']} committed for {r['k']} credits, on paper for "
                                       f"{on_paper[r['n']]} after {step}")


def issued(recs: list[dict], on_paper: dict[str, int], old_coupons: set[str]) -> int:
    """Coupons issued since the last RAM clear (each reported to the system as 3D, once): every number
    on paper or owed, but the one owed (committed, its ticket not yet finished)."""
    owed = recs[-1]["n"] if recs and recs[-1]["st"] == "owed" and recs[-1]["n"] not in old_coupons else None
    return len(set(on_paper) | ({owed} if owed else set())) - (1 if owed else 0)


# --- the screen ----------------------------------------------------------------------------------------
def settled(s: dict) -> bool:
    """What the last step started is over: no reels turning, no payout running; but a coupon owed to
    a printer at fault stays owed (state payout) until the attendant sees to it, whatever other
    tilts stand beside the printer's (the screen's `say` lists them all: ["tilt", KIND, ...])."""
    say = s.get("say") or []
    return s.get("state") not in ("spin", "payout") or (say[:1] == ["tilt"] and "printer" in say[1:])


def hand_open(s: dict) -> bool:
    """A dealt poker hand waits for its draw, or a card table's hand for a decision (the frame's
    table names the decisions waiting: firmware/play_cards.py), under a door or a tilt too: a
    cash-out waits."""
    return bool((s.get("hand") or {}).get("open") or (s.get("table") or {}).get("decide"))


def voided(n: int, played: int, events: list) -> bool:
    """Games voided and refunded (s. 95: e.g. a dealt poker hand whose game a reboot no longer
    offers) count in games_played but leave no recall record: n (the last record's) plus the
    voids in the event log (`events json`'s events) makes games_played (at most, once the log has
    recycled a chunk)."""
    voids = sum(1 for e in events if e[2] == "void")
    whole = bool(events) and events[0][0] == 1  # the log still holds its first event
    return n + voids == played if whole else n + voids <= played


def screen(m: dict, s: dict, recall: list[dict], replay: Callable[[dict], list | None],
           events: Callable[[], list]) -> None:
    """The display shows the committed credits and game count, and the reels it shows are the
    replay of the last recall record, whose number is games_played (but games voided since).
    `replay(record)`: the window a record replays to (None: a model the host does not have);
    `events()`: the event log, read only when needed."""
    if s.get("test") or s.get("state") in ("audit", "service"):
        return
    if s.get("credits") != m["credits"]:
        raise Violation("display", f"shows {s.get('credits')} credits, committed {m['credits']}")
    if s.get("games") != m["games_played"]:
        raise Violation("display", f"shows game {s.get('games')}, committed {m['games_played']}")
    if not recall:
        return
    last = recall[-1]
    if last["n"] != m["games_played"] and not hand_open(s) and not voided(last["n"], m["games_played"], events()):
        raise Violation("recall", f"last recall #{last['n']} but games_played {m['games_played']}")
    card = s.get("reels")
    if isinstance(card, dict) and not card.get("drawn"):
        return  # keno: a card being filled in on the screen, not a game shown
    if hand_open(s):
        return  # video poker: a dealt hand, counted in games_played, recalled once drawn
    window = replay(last)
    if window is not None and s.get("reels") is not None and s.get("reels") != window:
        raise Violation("display", f"shows {s.get('reels')}, recall #{last['n']} replays {window}")


# --- hard meters ---------------------------------------------------------------------------------------
def hard_want(m: dict, base: dict[str, int]) -> dict[str, int]:
    """What each electromechanical coil must count: its soft meters, from where it stood at the last RAM clear."""
    return {coil: sum(m[n] for n in names) + base.get(coil, 0) for coil, names in HARD_METERS.items()}


def hard_meters(want: dict[str, int], got: dict[str, int], step: str) -> None:
    """Each hard meter equals its soft meters (judged when no stroke is on its way)."""
    for coil, n in want.items():
        if got.get(coil, 0) != n:
            raise Violation("hard_meters", f"{coil}: counted {got.get(coil, 0)}, soft {n} after {step}")


# --- what one step must have done ----------------------------------------------------------------------
def cashout_paid(before: int, s: dict, locked: bool, tried: bool, tilts_grew: bool, state_lines: list[str]) -> None:
    """Credits belong to the player: a cash-out pays them (hopper, hand pay, coupon) in every state
    but a RAM error, or says why not (a lock, a tilt, a hopper that ran dry), or waits where the
    state table keeps the press (a game, a payout, a dealt hand)."""
    if before and s.get("credits") == before and s.get("state") not in CASHOUT_WAITS and not locked \
            and not tried and not tilts_grew and not hand_open(s):
        raise Violation("stranded", f"cash-out of {before} credits did nothing in state {s.get('state')} "
                                    f"({s.get('msg')!r}): {state_lines}")


def hand_kept(dealt: list | None, s: dict) -> None:
    """A poker hand dealt before a power cut waits after it with the same five cards."""
    if dealt and (not hand_open(s) or s.get("reels") != dealt):
        raise Violation("hand", f"dealt {dealt} before the cut, shows {s.get('reels')} {s.get('hand')} after")


def bit_flip_noticed(pos: int, bit: int, lines: list[str], s: dict) -> None:
    """A bit flipped in live critical memory while the power was off is noticed at power-up."""
    if not any("critical memory:" in ln for ln in lines) and s.get("state") != "ramerror":
        raise Violation("bitflip", f"bit {bit} at {pos} not detected: {lines[-6:]}")


def tampered_not_played(game_id: str, games_lines: list[str], s: dict) -> None:
    """A game whose certificate was tampered with is never played."""
    listed = " ".join(games_lines)
    if s.get("state") != "ramerror" and game_id in listed and "PLAYING" in listed.split(game_id)[1][:12]:
        raise Violation("certificate", f"{game_id} plays with a tampered certificate: {listed}")


def stuck_entropy_tilts(state_lines: list[str], s: dict) -> None:
    """A power-up on a stuck entropy source is the rng tilt."""
    if not any(ln.startswith("tilt rng") for ln in state_lines) and s.get("state") != "ramerror":
        raise Violation("rng", f"booted on a stuck entropy source without the rng tilt: {state_lines}")


def console_answers(sent: bytes, version_reply: list[str], version: str) -> None:
    """After line noise or an over-long line the console answers the next command."""
    if not any(version in ln for ln in version_reply):
        raise Violation("console", f"after {sent[:60]!r}... 'version' answered {version_reply!r}")


def privileged_refused(cmd: str, reply: list[str]) -> None:
    """A privileged command without the audit key is refused, saying so."""
    if not any("audit key" in ln or "locked" in ln for ln in reply):
        raise Violation("console", f"{cmd!r} without the audit key answered {reply!r}")


def long_line_ran_nothing(line: str, line_max: int, reply: list[str], before: list[str], after: list[str]) -> None:
    """A console line past its limit runs nothing (the tournament is as it was)."""
    if len(line) > line_max and before != after:
        raise Violation("console", f"an over-long line ran: {line!r} -> {reply!r}; tournament {before} -> {after}")


# --- notes of unknown fate (vlt) -----------------------------------------------------------------------
# states above the tilt in the state table's priority (firmware/states.py): a note's tilt stands
# beneath them; never idle, credit, hold or audit while it stands
ABOVE_TILT = ("ramerror", "handpay", "jackpot", "payout", "spin", "service", "door", "tilt")


def bills_in(m: dict, box_credits: int, note: dict | None, step: str) -> None:
    """bill_in equals the notes in the stacker (credits since the base), but while a note of
    unknown fate stands, which may be in the box or back in the player's hand: then either."""
    allowed = {box_credits} | ({box_credits - note["k"]} if note else set())
    if m["bill_in"] not in allowed:
        raise Violation("notes", f"bill_in {m['bill_in']} but the stacker took {box_credits} credits of notes"
                                 f"{' (a note of unknown fate: ' + str(note) + ')' if note else ''} after {step}")


def unknown_note_caused(unproven_before: int, unproven: int, caused: bool, step: str) -> None:
    """A note of unknown fate appears only after the validator lost its power, or a counter fault,
    while a note was pending; never out of a refusal, a power cut of the cabinet alone, a fault with
    nothing pending."""
    if unproven > unproven_before and not caused:
        raise Violation("note", f"{unproven - unproven_before} note(s) of unknown fate after {step}, with no validator "
                                f"power cut nor counter fault while a note was pending")


def unknown_note_stops_money(note: dict | None, s: dict, coins_accepting: bool, bills_accepting: bool) -> None:
    """While a note of unknown fate stands: the validator inhibited, the coin acceptor not
    accepting, the state the tilt's (or one above it: the reset key never leaves it)."""
    if note is None:
        return
    if coins_accepting or bills_accepting:
        raise Violation("note", f"money in taken while a note's fate is unknown ({note}): coins "
                                f"{coins_accepting}, notes {bills_accepting}")
    if s.get("state") not in ABOVE_TILT:
        raise Violation("note", f"state {s.get('state')} while a note's fate is unknown: {note}")


def note_settled(word: str, k: int, before: dict, after: dict) -> None:
    """`note stacked` credits the note (credits and bill_in, both by its value); `note returned`
    moves neither."""
    dk, db = after["credits"] - before["credits"], after["bill_in"] - before["bill_in"]
    want = k if word == "stacked" else 0
    if dk != want or db != want:
        raise Violation("note", f"note {word} of {k} credits moved credits by {dk} and bill_in by {db}")


def note_refused(reply: list[str], state: str, before: tuple, after: tuple) -> None:
    """`note stacked|returned` is refused while reels turn, a payout runs or a lock waits, and
    changes nothing (`note json` and the meters as they were)."""
    if not any("refused in state" in ln for ln in reply):
        raise Violation("note", f"settling a note in state {state} answered {reply}")
    if before != after:
        raise Violation("note", f"a refused settlement in state {state} changed {before} -> {after}")


# --- coupons across the machine's life (vlt) -----------------------------------------------------------
def records_kept(kept: dict[int, str], recs: list[dict], step: str) -> None:
    """`coupons json` keeps every record the system has not acknowledged (`kept`: sequence ->
    control number of each seen and not acknowledged), under the same number."""
    have = {r["s"]: r["n"] for r in recs}
    gone = {s: n for s, n in kept.items() if have.get(s) != n}
    if gone:
        raise Violation("coupon_records", f"records not acknowledged gone or renumbered after {step}: {gone} "
                                          f"(listed: {sorted(have)})")


def numbers_unique(on_paper: dict[str, int], seen: dict[str, int], step: str) -> None:
    """A control number names one coupon for the machine's life, across RAM clears and a lost
    coupon memory, and across machines (`seen`: number -> credits of every coupon seen on paper)."""
    for n, k in on_paper.items():
        if n in seen and seen[n] != k:
            raise Violation("coupon_numbers", f"control number {n} on paper for {k} credits, earlier for {seen[n]} "
                                              f"(after {step})")


def stop_means_no_money(validation: dict, coins_accepting: bool, bills_accepting: bool) -> None:
    """No money taken while the coupon memory says stop (no validation id, records awaiting)."""
    if validation.get("stop") and (coins_accepting or bills_accepting):
        raise Violation("coupons_stop", f"money in taken while the coupon memory says stop: {validation}")


PAID_BY_HAND_OR_HOPPER = ("hopper_out", "cancelled", "jackpot")


def coupon_only(since: dict, m: dict, step: str) -> None:
    """Under vlt credits leave only by coupon: no hopper payout, no hand pay, no jackpot lock since
    the books began running under vlt (`since`: those meters then)."""
    moved = {k: (since[k], m[k]) for k in PAID_BY_HAND_OR_HOPPER if k in since and m[k] != since[k]}
    if moved:
        raise Violation("vlt_payout", f"under vlt credits left other than by coupon after {step}: {moved}")


# --- the RAM clear -------------------------------------------------------------------------------------
def ram_clear(reply: list[str], owed: list[str], ram_error: bool, refusals: int) -> bool:
    """An accepted clear outside a RAM error only with nothing owed; a refused one says why and is
    one `refused` record of the security log (`refusals`: those written since). Returns whether it
    was taken."""
    taken = any("critical memory cleared" in ln for ln in reply)
    if any("hard meters are still counting" in ln for ln in reply):
        return False  # not yet: a stroke on its way (the clear keeps each coil's position)
    if taken and owed and not ram_error:
        raise Violation("ramclear", f"RAM clear taken with {owed} owed: {reply}")
    if not taken and refusals != 1:
        raise Violation("ramclear", f"a refused RAM clear ({reply}) left {refusals} 'refused' security records")
    return taken


def unchanged(what: str, before, after, step: str) -> None:
    if before != after:
        raise Violation(what, f"{step} changed {before} -> {after}")


def world_tilts_survive(before: set[str], after: set[str]) -> None:
    """A RAM clear fixes nothing of the world's: the game, config and software tilts read at
    power-up stay."""
    lost = {"game", "config", "software", "limits"} & before - after
    if lost:
        raise Violation("ramclear", f"a RAM clear dropped the {sorted(lost)} tilt(s) read from the world")


# --- the money basis (jurisdiction and credit value) ---------------------------------------------------
def basis_after_boot(before: tuple[str, int], asked: tuple[str, int], owed: bool | None, now: tuple[str, int],
                     events: int) -> None:
    """While anything is owed the cabinet runs under the books' basis; the basis changes only with
    nothing owed, to what the operator asked, and always with a `basis` event (`events`: those
    written in this boot). `owed` None: not known (the power went in the middle of an action)."""
    if now != before and now != asked:
        raise Violation("basis", f"runs under {now}: neither the books' {before} nor the operator's {asked}")
    if now != before and owed:
        raise Violation("basis", f"the basis changed {before} -> {now} with money owed under the old one")
    if now != before and events != 1:
        raise Violation("basis", f"the basis changed {before} -> {now} with {events} basis events")
    if now == before and events:
        raise Violation("basis", f"{events} basis events but the basis stayed {now}")


def floors_up(before: dict[str, int], after: dict[str, int], software: str = "") -> None:
    """The board's floors (release, configuration, enrolment numbers) never go down, and the
    release floor is at least the release that runs (`software`: the ready line's, 'release 0.1.0
    (number 1000) authentic, ...')."""
    down = {k: (before[k], after.get(k, 0)) for k in before if after.get(k, 0) < before[k]}
    if down:
        raise Violation("floors", f"floors went down: {down}")
    if "(number " in software:
        number = int(software.split("(number ")[1].split(")")[0])
        if after.get("release", 0) < number:
            raise Violation("floors", f"release floor {after.get('release')} below the release that runs: {software}")


# --- the progressive -----------------------------------------------------------------------------------
def progressive_units(state_lines: list[str]) -> tuple[int, int, int] | None:
    """(meter, rolled over, den) in units of 1/den credit, from the console's `state`."""
    for ln in state_lines:
        if ln.startswith("progressive meter: "):  # 'progressive meter: N/D, rolled over R/D'
            meter, rolled = ln[len("progressive meter: "):].split(", rolled over ")
            n, den = (int(x) for x in meter.split("/"))
            return n, int(rolled.split("/")[0]), den
    return None


def progressive_grew(spec: dict, before: int, after: int, paid_before: int, paid_after: int,
                     games: list[dict], linked: bool = False) -> None:
    """Units on the meter and rolled over, plus what was paid: each game at the progressive's bet
    adds bet x num units, the other bets nothing, nor a tournament game (its record's `tour`: credits
    of no cash value, played off an entry fee), a hit the reset (`games`: the recall records of the
    games played in between, all of them). `linked` (through SAS, docs/sas.md "The linked
    progressive"): the meter still takes every contribution but a hit pays the controller's level,
    not the meter: meter + roll-over move by the contributions alone, and `progressive_paid` by
    exactly what the hits' records say they paid."""
    hits = [g for g in games if g.get("prog")]
    fed = sum(g["bet"] * spec["num"] for g in games if g["bet"] == spec["bet"] and not g.get("tour"))
    if linked:
        paid = sum(g["prog"][0] for g in hits)
        if after - before != fed or paid_after - paid_before != paid:
            raise Violation("progressive", f"linked: meter + roll-over moved by {after - before} units and "
                                           f"progressive_paid by {paid_after - paid_before}, {len(games)} games "
                                           f"make {fed} units fed and {paid} paid ({len(hits)} hits)")
    else:
        want = fed + len(hits) * spec["reset"] * spec["den"]
        got = after + paid_after * spec["den"] - before - paid_before * spec["den"]
        if got != want:
            raise Violation("progressive", f"meter + roll-over + paid moved by {got} units, {len(games)} games "
                                           f"({fed} units fed, {len(hits)} hits) make {want}")
    for g in games:
        if g.get("prog") and not spec["reset"] <= g["prog"][0] <= (spec["ceiling"] or g["prog"][0]):
            raise Violation("progressive", f"game {g['n']} paid the progressive {g['prog'][0]}: outside "
                                           f"{spec['reset']}..{spec['ceiling']}")


# --- the linked progressive (docs/sas.md "The linked progressive": 80/86, exception 53) ----------------
LOST_S = 5.0  # firmware/sas/progressive.py LOST_MS: a silence longer than this is exception 53
LOST_MARGIN_S = 0.7  # a gap this near LOST_S, seen from the host, may be one or not (timing, a loop pass)


def linked_level(cents: int, denom: int, spec: dict) -> int:
    """What a hit pays for the controller's level `cents`: whole credits at `denom`, rounded down
    (never more than the controller said), never under the model's reset (s. 93) nor over its ceiling."""
    c = max(cents // denom, spec["reset"])
    return c if spec["ceiling"] is None else min(c, spec["ceiling"])


def linked_state(state_lines: list[str]) -> int | None | bool:
    """The console `state`'s 'progressive linked: N credits (...)' line: N; None: 'no level' (stale or
    none heard); False: no such line (the cabinet's progressive is not linked through SAS)."""
    for ln in state_lines:
        if ln.startswith("progressive linked: "):
            what = ln[len("progressive linked: "):]
            return None if what.startswith("no level") else int(what.split()[0])
    return False


def linked_shown(s: dict, state_lines: list[str], want: int | None, step: str) -> None:
    """A linked cabinet with no game open shows (screen `jackpot`, console `state`) the level the
    fuzz's controller broadcast last, bounded (`want`: linked_level), or none while it is silent
    (`want` None: the `progressive` tilt then stands, and no game may start)."""
    got = linked_state(state_lines)
    if got is False:
        raise Violation("linked", f"after {step}: a cabinet linked through SAS, no 'progressive linked' line")
    if got != want or s.get("jackpot") != want:
        raise Violation("linked", f"after {step}: the controller's level makes {want} credits, the console "
                                  f"says {got}, the screen {s.get('jackpot')}")
    if want is None and "progressive" not in tilt_kinds(state_lines):
        raise Violation("linked", f"after {step}: no fresh level and no progressive tilt: {state_lines}")


def linked_paid(games: list[dict], levels: set[int], step: str) -> None:
    """Each hit among `games` (recall records) paid the level in force when its game started, bounded:
    one of `levels` (linked_level of every level the controller had in force since the last check,
    the fuzz's own record of what it broadcast), never the cabinet's own meter."""
    for g in games:
        if g.get("prog") and g["prog"][0] not in levels:
            raise Violation("linked", f"after {step}: game {g['n']} paid the progressive {g['prog'][0]}, the "
                                      f"controller's level in force made {sorted(levels)}")


def silences(heard: list[float], anchor: float, since: float, now: float) -> tuple[int, int]:
    """The controller's silences whose exception 53 falls between the check at `since` and the one at
    `now` (host clock), from the instants of its broadcasts for the group: `anchor`, the last before
    `since`, then `heard`, those after it. A silence longer than LOST_S raises its 53 once LOST_S has
    passed since the last broadcast (firmware/sas/progressive.py watch): (sure, maybe), `maybe` the
    silences within LOST_MARGIN_S of LOST_S or whose 53 falls that near a check (one or none)."""
    sure = maybe = 0
    ts = [anchor] + [t for t in heard if since < t <= now]
    for i, a in enumerate(ts):
        end = ts[i + 1] if i + 1 < len(ts) else now  # the last: a silence going on at `now`
        length, at = end - a, a + LOST_S
        if length <= LOST_S - LOST_MARGIN_S or at >= now + LOST_MARGIN_S or at <= since - LOST_MARGIN_S:
            continue
        if length > LOST_S + LOST_MARGIN_S and since + LOST_MARGIN_S < at < now - LOST_MARGIN_S:
            sure += 1
        else:
            maybe += 1
    return sure, maybe


def jackpot_shown(spec: dict, s: dict) -> None:
    """The screen's progressive never above its ceiling."""
    if spec["ceiling"] is not None and (s.get("jackpot") or 0) > spec["ceiling"]:
        raise Violation("progressive", f"the screen shows a progressive of {s.get('jackpot')} above its ceiling "
                                       f"{spec['ceiling']}")


def vlt_prizes(lock_kind: str | None, recall: list[dict], denom: int, max_prize_cents: int) -> None:
    """Under vlt a win is credited, never a jackpot lock, and no game pays above the prize limit."""
    if lock_kind == "jackpot":
        raise Violation("vlt_prize", "a jackpot lock under vlt (only a coupon pays)")
    for g in recall:
        if g["win"] * denom > max_prize_cents:
            raise Violation("vlt_prize", f"game {g['n']} won {g['win']} credits: above ${max_prize_cents / 100:.2f} "
                                         f"at {denom} cents")


# --- the screen's frame --------------------------------------------------------------------------------
def outcome_shown(s: dict, last: dict | None, award: int | None) -> None:
    """`outcome` is null while reels turn or a poker hand waits; otherwise it is the last recall
    record's: its bet, and for a reel game its line wins and free spins add up to the award the
    host's replay gives (`award`, without any progressive)."""
    o = s.get("outcome")
    if o is None:
        return
    if s.get("state") == "spin" or hand_open(s):
        raise Violation("outcome", f"an outcome shown while {s.get('state')}: {o}")
    if last is None:
        return
    if o["bet"] != last["bet"]:
        raise Violation("outcome", f"outcome at bet {o['bet']}, the last recall record's at {last['bet']}")
    if award is not None and o.get("lines") is not None:
        total = sum(c for _, c in o["lines"]) + (o["free"][1] if o.get("free") else 0)
        if total != award:
            raise Violation("outcome", f"the outcome's wins add up to {total}, the replay's award is {award}: {o}")


def limits_shown(s: dict, limits: dict | None) -> None:
    """The frame's `limits` are the profile's (vlt: $2.50 and $1,000, docs/reference/vlt-rules.md)."""
    if s.get("limits") != limits:
        raise Violation("limits", f"the screen gives limits {s.get('limits')}, the profile's are {limits}")


def rng_tilt_injected(tilt_set: set[str], injected: bool) -> None:
    """No rng tilt unless the entropy source was made to stick."""
    if "rng" in tilt_set and not injected:
        raise Violation("rng", "an rng tilt with a sound entropy source")


# --- the security log ----------------------------------------------------------------------------------
def log_full_only_at_reserve(reply: list[str], status: dict) -> None:
    """A privileged command answers 'security log full' only when the room left is the reserve."""
    if any("security log full" in ln for ln in reply) and status["room"] > status["reserve"]:
        raise Violation("security", f"'security log full' with {status['room']} records of room: {reply}")


def noise_not_recorded(before: dict, after: dict, lines: int, own: int) -> None:
    """Lines from no session are counted, not recorded: `lines` of them add at most `own` records
    (the logout, the login, the reading) and their count to the noise summary."""
    added = after["records"] - before["records"]
    if added > own:
        raise Violation("security", f"{lines} anonymous lines added {added} records (at most {own})")
    if after["noise"] - before["noise"] < lines and after.get("archived") == before.get("archived"):
        raise Violation("security", f"{lines} anonymous lines but the noise count moved "
                                    f"{before['noise']} -> {after['noise']}")


def archive_kept(before: list[list], after: list[list], mark: int) -> None:
    """Every record above the archive mark is still there (`before`/`after`: `security json`)."""
    have = {r[0]: r for r in after}
    lost = [r[0] for r in before if r[0] > mark and have.get(r[0]) != r]
    if lost:
        raise Violation("security", f"records {lost[:8]} above the archive mark {mark} gone")


def enrolled(records: list[list]) -> None:
    """After the first administrator, a machine gets one only by the operator's enrolment: a
    `setup` record is the machine's first administrator, never a second one, never one after the
    security memory was lost (its log starts again with a `lost` record)."""
    lost, setups = False, 0
    for r in records:
        if r[3] == "lost":
            lost = True
        elif r[3] == "setup":
            setups += 1
            if lost or setups > 1:
                raise Violation("enrolment", f"an administrator made again without the operator's enrolment: {r}")


# --- the central system (SAS) ---------------------------------------------------------------------------
def drop(m: dict) -> int:
    """Every credit taken in (SAS meter 24, total drop, in 13, 0F, 1C): coins, notes and tickets."""
    return m["acceptor_in"] + m["bill_in"] + m.get("ticket_in", 0)


def sas_meters(c1: list[int], credits: int, m: dict, step: str) -> None:
    """What the system reads over SAS (1C's eight meters, 1A's credits: 8 BCD digits) is the books'
    (whose money meters the checks above hold to the peers' counts)."""
    want = [v % 10 ** 8 for v in (m["coin_in"], m["coin_out"], drop(m), m["jackpot"],
                                   m["games_played"], m["games_won"], m["door_main"], m["power_resets"])]
    if c1 != want or credits != m["credits"] % 10 ** 8:
        raise Violation("sas_meters", f"after {step}: 1C {c1} 1A {credits}, the books {want} {m['credits']}")


# SAS Table A-1's codes for what the model counts (saspy's models/GPoll.py lists them; docs/sas.md "Exceptions and
# their queue" says which event raises which): each door's opened, closed and opened-while-off codes
SAS_DOORS = (("door_main", 0x11, 0x12, 0x99), ("door_logic", 0x15, 0x16, 0x98), ("door_cashbox", 0x19, 0x1A, 0x9A))
# a note accepted, by its value in cents: $1 47, $5 48, $10 49, $20 4A, $50 4B, $100 4C, $2 4D, $500 4E, $200 50
SAS_NOTES = {100: 0x47, 500: 0x48, 1000: 0x49, 2000: 0x4A, 5000: 0x4B, 10000: 0x4C, 200: 0x4D, 50000: 0x4E, 20000: 0x50}
SAS_NOTE_OTHER = 0x4F  # any other value
SAS_NOTE_CODES = frozenset(SAS_NOTES.values()) | {SAS_NOTE_OTHER}
# the codes a new tilt may raise, by its kind (docs/sas.md: a validator's reason "bill validator: ..." is 29
# whatever its kind, the coupons tilt for want of a validation id 3F; a tilt's shown reason is its latest, so
# either code of a kind is taken); no code: the system's own tilts, the link's, the progressive's (53 says it)
SAS_TILTS = {"acceptor": (0x21, 0x29), "fraud": (0x2C, 0x29), "hopper": (0x22,), "note": (0x28,),
             "software": (0x37,), "coupons": (0x3F, 0x20), "printer": (0x60, 0x61, 0x78)}
SAS_QUIET_TILTS = ("host", "link", "maintenance", "sas-game", "progressive")
SAS_GENERAL_TILT = 0x20  # any other tilt
# the queue's priorities as docs/sas.md's table gives them (0 first); a code not listed is 3 (notes 47-50);
# 70 (overflow) and 57 (system validation, not queued) come before the queue's
SAS_PRIORITY = {0x51: 0, 0x52: 0, 0x3A: 0, 0x37: 0, 0x54: 0, 0x36: 0,
                0x11: 1, 0x12: 1, 0x15: 1, 0x16: 1, 0x19: 1, 0x1A: 1, 0x98: 1, 0x99: 1, 0x9A: 1,
                0x18: 2, 0x17: 2, 0x20: 2, 0x21: 2, 0x22: 2, 0x28: 2, 0x29: 2, 0x2C: 2, 0x3F: 2, 0x60: 2, 0x61: 2,
                0x78: 2, 0x53: 2}
SAS_BEFORE_QUEUE = (0x70, 0x57)


def sas_priority(code: int) -> int:
    return -1 if code in SAS_BEFORE_QUEUE else SAS_PRIORITY.get(code, 3)


def game_open(state_lines: list[str], m: dict) -> bool | None:
    """A game whose 7E was raised and its 7F not yet (a wager committed, a hand dealt, reels turning),
    from the console's `state` line 'last game: #N ...'; None when N is not the meters' games_played (a
    game moved between the two readings: not known)."""
    for ln in state_lines:
        if ln.startswith("last game: #"):
            n, what = ln[len("last game: #"):].split(" ", 1)
            if int(n) != m["games_played"]:
                return None
            return what.endswith(("waiting for the draw", "its outcome not yet", "pending"))
    return False


def sas_view(m: dict, state_lines: list[str], notes: dict[int, int] | None = None,
             issued: int | None = None) -> dict:
    """What the oracle compares between two checks (sas_exceptions): the meters, whether a game is open,
    a lock stands, which doors are open and which tilts stand (the console's `state`), the notes the
    validator stacked by value in cents (None: not known, a note of unknown fate about), the coupons
    issued (None: not counted)."""
    tilts = {}
    for ln in state_lines:
        if ln.startswith("tilt "):
            k, _, why = ln[5:].partition(": ")
            tilts[k] = why
    return {"m": m, "game_open": game_open(state_lines, m), "lock": lock(state_lines) is not None,
            "doors": {d for d, *_ in SAS_DOORS if f"{d} open" in state_lines}, "tilts": tilts, "notes": notes,
            "issued": issued}


def sas_expected(before: dict, now: dict, did: dict) -> dict[int, int]:
    """Code -> the times it must be reported between two checks, for the events the model counts: the
    doors opened (their meters) and closed (`did["closes"]`: the model's closings of each door), the
    power-ups (17 and 18), the games started (7E) and ended (7F: those started, plus one open at the last
    check, less one open now), the locks made (51) and cleared (52: `did["clears"]`, the model's key
    turns and 94s that paid one; None: not known), the cash-out button's presses (66: `did["cashouts"]`;
    None: not known), the notes stacked by value, the coupons issued (3D).
    A code whose count is not known is left out."""
    m0, m1 = before["m"], now["m"]
    want: dict[int, int] = {}
    for door, opened, closed, _ in SAS_DOORS:
        want[opened] = m1[door] - m0[door]
        if did.get("closes") is not None:
            want[closed] = did["closes"].get(door, 0)
    want[0x17] = want[0x18] = m1["power_resets"] - m0["power_resets"]
    want[0x7E] = m1["games_played"] - m0["games_played"]
    if before["game_open"] is not None and now["game_open"] is not None:
        want[0x7F] = want[0x7E] + before["game_open"] - now["game_open"]
    if did.get("cashouts") is not None:
        want[0x66] = did["cashouts"]
    if did.get("clears") is not None:
        want[0x52] = did["clears"]
        want[0x51] = did["clears"] + now["lock"] - before["lock"]
    if before["notes"] is not None and now["notes"] is not None and m1["bill_unproven"] == m0["bill_unproven"]:
        for code in SAS_NOTE_CODES:
            want[code] = 0
        for cents in set(before["notes"]) | set(now["notes"]):
            code = SAS_NOTES.get(cents, SAS_NOTE_OTHER)
            want[code] += now["notes"].get(cents, 0) - before["notes"].get(cents, 0)
    if before["issued"] is not None and now["issued"] is not None:
        want[0x3D] = now["issued"] - before["issued"]
    return want


def sas_exceptions(codes: list[int], before: dict | None, now: dict, known: frozenset, step: str,
                   did: dict | None = None, last: int = 0, earlier: list[int] = ()) -> None:
    """Every code reported is one the cabinet's events raise; between two checks (`before`, `now`: sas_view's
    at each; `before` None: nothing to compare, the first check) each event the model counts was reported
    exactly as many times (sas_expected; `did`: the model's counts of the steps between). Across a power cut
    a code may come twice: reported, then the cut before its removal was committed (docs/sas.md: at least
    once, never lost), at most once a power-up. A door found opened while off (99, 98, 9A) only across a
    power-up, never more often than the door's openings. A tilt standing now and not at the last check was
    reported (one of its kind's codes, SAS_TILTS) in this window or the last (`earlier`: that one's codes).
    Order (firmware/sas/exceptions.py take: the highest priority pending first, the oldest first within a
    priority; 70 and 57 before the queue), judged only where no power-up came between (a code may then come
    twice): in the check's own drain (`codes[last:]`, begun after the meters were read), a code the model
    knows was still pending at its start (counted more times than reported before it) comes after no code of
    a lower priority; and in the whole window a door is never reported closed more often than opened (one open
    at the last check aside), a game ended than started, a hand pay reset than pending (both of a pair share a
    priority: oldest first). 53 (`did["silences"]`: (sure, sure + maybe) from silences(); None: not known)
    as many times as the linked progressive's controller was silent past 5 s, any number from none to one
    more per power-up across a power-up (the firmware's 5 s start again at it)."""
    odd = sorted({c for c in codes if c not in known})
    if odd:
        raise Violation("sas_exception", f"after {step}: codes no event raises {[hex(c) for c in odd]} in {codes}")
    m0, m = (before or {}).get("m"), now["m"]
    if before is None or 0x3A in codes or 0x70 in codes or m["games_played"] < m0["games_played"]:
        return  # a RAM clear (the queue starts again) or an overflow (counted, not kept): nothing to match
    shown = [hex(c) for c in codes]
    cuts = m["power_resets"] - m0["power_resets"]
    want = sas_expected(before, now, did or {})
    for code, n in sorted(want.items()):
        got = codes.count(code)
        if not n <= got <= n + cuts:
            raise Violation("sas_exception", f"after {step}: {got} x {code:02X} reported, {n} counted by the model "
                                             f"({cuts} power-ups): {shown}")
    lost = (did or {}).get("silences")  # 53: the controller's silences (silences(); None: not known)
    if lost is not None:
        lo, hi = (0, lost[1] + cuts) if cuts else lost
        if not lo <= codes.count(0x53) <= hi:
            raise Violation("sas_exception", f"after {step}: {codes.count(0x53)} x 53 reported, the controller's "
                                             f"silences past 5 s make {lo}..{hi} ({cuts} power-ups): {shown}")
    for door, opened, _, off in SAS_DOORS:
        if codes.count(off) > (want[opened] + cuts if cuts and want[opened] else 0):
            raise Violation("sas_exception", f"after {step}: {codes.count(off)} x {off:02X} ({door} opened while off) "
                                             f"with {want[opened]} openings, {cuts} power-ups: {shown}")
    for kind_, why in now["tilts"].items():
        if kind_ in before["tilts"] or kind_ in SAS_QUIET_TILTS:
            continue
        may = (0x29,) if why.startswith("bill validator") else SAS_TILTS.get(kind_, (SAS_GENERAL_TILT,))
        if not any(c in may for c in list(codes) + list(earlier)):
            raise Violation("sas_exception", f"after {step}: the {kind_} tilt ({why}) came and none of "
                                             f"{[hex(c) for c in may]} was reported: {shown}")
    if cuts:
        return
    drain = codes[last:]
    for code, n in want.items():
        pending = n - codes[:last].count(code)  # at least this many were queued when the check's drain began
        if pending <= 0:
            continue
        at = [i for i, c in enumerate(drain) if c == code][pending - 1]
        late = [c for c in drain[:at] if sas_priority(c) > sas_priority(code)]
        if late:
            raise Violation("sas_order", f"after {step}: {code:02X} (priority {sas_priority(code)}) pending, reported "
                                         f"after {[hex(c) for c in late]} of a lower priority: {[hex(c) for c in drain]}")
    pairs = [(opened, closed, door in before["doors"]) for door, opened, closed, _ in SAS_DOORS]
    pairs += [(0x7E, 0x7F, bool(before["game_open"])), (0x51, 0x52, before["lock"])]
    for first, then, standing in pairs:
        seen = {first: 0, then: 0}
        for c in codes:
            if c in seen:
                seen[c] += 1
                if seen[then] > seen[first] + standing:
                    raise Violation("sas_order", f"after {step}: {then:02X} reported before its {first:02X}: {shown}")



def ticket_in(number: str, cents: int, credits: int, before: dict, after: dict, in_box: bool, back: bool,
              sas_read: dict, step: str) -> None:
    """A ticket presented to the ticket reader (sim/fuzz/rules_sas.py sas_ticket_in): credited
    (`credits`, its `cents` at the credit value) exactly when the validator's cash box holds it,
    nothing when it came back to the player, never both; the tickets' meters read over SAS (2F:
    0x28 credits, 0x11 count, 0x0D cents) are the console's `ticket_in` and move by the ticket."""
    if in_box and back:
        raise Violation("ticket", f"ticket {number} both in the cash box and back with the player after {step}")
    moved = after.get("ticket_in", 0) - before.get("ticket_in", 0)
    want = credits if in_box else 0
    if moved != want:
        raise Violation("ticket", f"ticket {number} ({cents} cents, {'in the cash box' if in_box else 'not stacked'}):"
                                  f" ticket_in moved {moved}, not {want} after {step}")
    if sas_read.get(0x28) != after.get("ticket_in", 0) % 10 ** 8:
        raise Violation("ticket", f"2F reads {sas_read.get(0x28)} credits of tickets, the books {after.get('ticket_in')}")
