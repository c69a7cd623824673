# The cabinet's states, the events it takes and what each event does in each state: one table, read
# by firmware/cabinet.py (which carries it out), by docs/firmware.md (which shows it) and by the
# stateful tests' model (tests/host/test_stateful.py), so the three cannot disagree.
#
# A state is not stored: it is derived from what critical memory and the switches say, by the
# priority of the overriding conditions below (highest first). So a power cut can never leave the
# cabinet "in" a state its books contradict.

# States, highest priority first.
RAMERROR = "ramerror"  # critical memory unrecoverable: only a technician's RAM clear
HANDPAY = "handpay"  # a cash-out waits for the attendant to pay it by hand
JACKPOT = "jackpot"  # a win at or above the jackpot limit (or a progressive) waits for the attendant
PAYOUT = "payout"  # the hopper is paying
SPIN = "spin"  # a committed game's reels are turning; its award is pending (s. 94)
DOOR = "door"  # a door is open
TILT = "tilt"  # a fault stops play and money in
HOLD = "hold"  # a video poker hand is dealt (its deck and bet committed): holds, then draw
AUDIT = "audit"  # the audit key is on
CREDIT = "credit"
IDLE = "idle"
STATES = (RAMERROR, HANDPAY, JACKPOT, PAYOUT, SPIN, DOOR, TILT, HOLD, AUDIT, CREDIT, IDLE)


def derive(ram_error, lock_kind, paying, spinning, door_open, tilted, audit_key, credits, hand_open=False):
    """The one place the priority of the overriding conditions is spelled out. An open poker hand
    waits under a door or a tilt (suspended, never lost) and keeps the audit key out until drawn."""
    if ram_error:
        return RAMERROR
    if lock_kind:
        return lock_kind  # HANDPAY or JACKPOT
    if paying:
        return PAYOUT
    if spinning:
        return SPIN
    if door_open:
        return DOOR
    if tilted:
        return TILT
    if hand_open:
        return HOLD
    if audit_key:
        return AUDIT
    return CREDIT if credits else IDLE


# Events from the player, the attendant and the technician.
BET = "bet"  # bet-one button: the next bet level of the offered game
MAX = "max"  # bet-max button: the highest bet level, then play
PLAY = "play"
CASHOUT = "cashout"
KEY = "key"  # the attendant's reset key
TEST = "test"  # console 'testgame' (audit key on)
RAMCLEAR = "ramclear"  # console 'ramclear' (an administrator, audit key on)
HOLD_KEY = "hold_key"  # a hold key 1-5 under a dealt card (touch screen, console 'hand hold N')
AUTO = "auto"  # auto-hold: the built-in strategy's holds (games/poker.py suggest)
HOST_DISABLE = "host_disable"  # the central system's "shut down" (SAS long poll 01): no play until 02
HOST_ENABLE = "host_enable"  # its "start up" (02)
EVENTS = (BET, MAX, PLAY, CASHOUT, KEY, TEST, RAMCLEAR, HOLD_KEY, AUTO, HOST_DISABLE, HOST_ENABLE)

# What the cabinet does: the name of its method. An event a state does not list is refused
# (nothing happens, nothing is committed).
PLAY_STATES = (IDLE, CREDIT)
# a cash-out while a game or a payout is under way is kept and carried out when it ends
CASHOUT_WAITS = (SPIN, PAYOUT, HANDPAY, JACKPOT, HOLD)
TABLE = {}
for _s in PLAY_STATES:
    TABLE[(_s, BET)] = "bet_one"
    TABLE[(_s, MAX)] = "bet_max"
    TABLE[(_s, PLAY)] = "play"  # with too few credits: the panel says "insert"
for _s in STATES:
    if _s != RAMERROR:  # credits belong to the player: cash-out everywhere memory can be trusted
        TABLE[(_s, CASHOUT)] = "keep_cashout" if _s in CASHOUT_WAITS else "cashout"
        TABLE[(_s, KEY)] = "attendant_key"  # pays a lock, else clears the tilts it may clear
TABLE[(AUDIT, TEST)] = "play_test_game"
TABLE[(AUDIT, RAMCLEAR)] = "ram_clear"
TABLE[(RAMERROR, RAMCLEAR)] = "ram_clear"  # with the audit key on (the console checks it)
# money in: the acceptor is enabled only in these states (and below the credit limit)
# (not while a dealt hand waits: its recall record's credits before and after must balance)
MONEY_STATES = (IDLE, CREDIT, SPIN)
# a dealt poker hand: PLAY is DRAW (the holds, then the replacement cards from the committed deck)
TABLE[(HOLD, PLAY)] = "draw"
TABLE[(HOLD, HOLD_KEY)] = "toggle_hold"
TABLE[(HOLD, AUTO)] = "auto_hold"
# the system disables play between games and payouts, never in the middle of one; it may enable always
for _s in (IDLE, CREDIT, TILT, DOOR, AUDIT):
    TABLE[(_s, HOST_DISABLE)] = "host_disable"
for _s in STATES:
    if _s != RAMERROR:
        TABLE[(_s, HOST_ENABLE)] = "host_enable"


def action(state, event):
    """The cabinet method that carries out `event` in `state`, or None: refused."""
    return TABLE.get((state, event))
