# The cabinet's states, the events it takes and what each event does in each state: one table, read
# by firmware/cabinet.py (which carries it out: Cabinet.handle), shown by docs/firmware.md (written
# from it by `python -m tools.state_table`, checked by tests/device/test_firmware_states.py) and read
# by the stateful tests' model (sim/fuzz/oracle.py), so the three cannot disagree.
#
# A state is not stored: it is derived from what critical memory and the switches say, by the
# priority of the overriding conditions below (highest first). So a power cut can never leave the
# cabinet "in" a state its books contradict.

# States, highest priority first.
RAMERROR = "ramerror"  # critical memory unrecoverable: only an administrator's RAM clear (console_access.RIGHTS)
HANDPAY = "handpay"  # a cash-out waits for the attendant to pay it by hand
JACKPOT = "jackpot"  # a win at or above the jackpot limit (or a progressive) waits for the attendant
PAYOUT = "payout"  # the hopper is paying, or a coupon is owed
SPIN = "spin"  # a committed game's reels are turning; its award is pending (s. 94)
SERVICE = "service"  # the audit key is on and nothing is owed to anyone, whatever the doors and tilts
DOOR = "door"  # a door is open
TILT = "tilt"  # a fault stops play and money in
HOLD = "hold"  # a video poker hand is dealt (its deck and bet committed): holds, then draw
AUDIT = "audit"  # the audit key is on, and something is owed (credits on the meter, a dealt hand ...)
CREDIT = "credit"
IDLE = "idle"
STATES = (RAMERROR, HANDPAY, JACKPOT, PAYOUT, SPIN, SERVICE, DOOR, TILT, HOLD, AUDIT, CREDIT, IDLE)


def derive(ram_error, lock_kind, paying, spinning, door_open, tilted, audit_key, credits, hand_open=False,
           owed=False):
    """The one place the priority of the overriding conditions is spelled out. An open poker hand
    waits under a door or a tilt (suspended, never lost) and keeps the audit key out until drawn.
    owed: the books still owe something besides the credit meter and the states above it (a note in
    escrow, a wager not yet settled, a tournament running, a coupon owed: Ledger.owed). SERVICE, the
    only state but RAMERROR that takes the RAM clear, is the audit key with nothing owed at all."""
    if ram_error:
        return RAMERROR
    if lock_kind:
        return lock_kind  # HANDPAY or JACKPOT
    if paying:
        return PAYOUT
    if spinning:
        return SPIN
    if audit_key and not (credits or hand_open or owed):
        return SERVICE
    if door_open:
        return DOOR
    if tilted:
        return TILT
    if hand_open:
        return HOLD
    if audit_key:
        return AUDIT
    return CREDIT if credits else IDLE


# Events from the player, the attendant, the technician and the cabinet itself.
BET = "bet"  # bet-one button: the next bet level of the offered game
MAX = "max"  # bet-max button: the highest bet level, then play
PLAY = "play"  # play button (on a dealt poker hand: DRAW)
CASHOUT = "cashout"  # cash-out button (and a press kept until a game, payout or lock ends)
KEY = "key"  # the attendant's reset key
TEST = "test"  # console 'testgame' (a technician's session)
RAMCLEAR = "ramclear"  # console 'ramclear' (an administrator's session)
DEAL = "deal"  # console 'hand deal': a new poker hand, never a draw
DRAW = "draw"  # console 'hand draw': a dealt hand's draw, never a new hand
HOLD_KEY = "hold_key"  # a hold key 1-5 under a dealt card (touch screen, console 'hand hold N')
AUTO = "auto"  # auto-hold: the built-in strategy's holds (games/poker.py suggest)
SPOT = "spot"  # keno: a number touched on the card marks or unmarks it
QUICK = "quick"  # keno: quick pick of n spots
CLEAR = "clear"  # keno: the card emptied; a table game: the layout emptied
WAGER = "wager"  # a table game: a wager on the layout to its next bet level (touch), or to credits (console)
COUPON = "coupon"  # the credits reached the profile's automatic coupon (vlt: L-6, r. 3, s. 6)
HOST_DISABLE = "host_disable"  # the central system's "shut down" (SAS long poll 01): no play until 02
HOST_ENABLE = "host_enable"  # its "start up" (02)
HOST_TOURNAMENT = "host_tournament"  # its "enter/exit tournament mode" (8C): the console's tournament start / end
NOTE = "note"  # console 'note stacked|returned' (an attendant): a note of unknown fate, as the cash box says;
# 'ticket stacked|returned' too: a ticket of unknown fate (SAS ticket in), the same word on the validator's
EVENTS = (BET, MAX, PLAY, CASHOUT, KEY, TEST, RAMCLEAR, DEAL, DRAW, HOLD_KEY, AUTO, SPOT, QUICK, CLEAR, COUPON, NOTE,
          HOST_DISABLE, HOST_ENABLE, WAGER, HOST_TOURNAMENT)

# What the cabinet does: the name of its method, or of its game's play's for PLAY_ACTIONS below
# (firmware/play.py and its families). An event a state does not list is refused (nothing happens,
# nothing is committed). The methods:
#   cashout          the hopper pays (when usable and within its limit), else a hand pay; a coupon
#                    where only a coupon pays (vlt)
#   cashout_by_hand  never the hopper (a door open, the audit key on): a hand pay, or the coupon
#   keep_cashout     the press is kept and carried out when the game, payout or lock ends
#   attendant_key    pays a lock, else clears the tilts the key may clear
TABLE = {
    # The central system (SAS long polls 01/02, firmware/sas/machine.py) disables play only between
    # games and payouts, never in the middle of one; it may enable in every state memory is trusted.
    # It enters or leaves tournament mode (8C) only where nothing is under way and nothing stops play:
    # not mid-game nor mid-payout, not during a lock, and, as SAS 6.02 s. 11.2 has a machine wait
    # out a tilt or a hand pay, not under a tilt or a door open (the audit key's states take it: the
    # console's own tournament start and end are the administrator's there).
    # ramerror: memory cannot be trusted: nothing is paid or cleared from it. The RAM clear is the
    # one clear taken while something may be owed, since what is owed can no longer be read.
    (RAMERROR, RAMCLEAR): "ram_clear",
    # handpay: a cash-out locked for the attendant
    (HANDPAY, CASHOUT): "keep_cashout",
    (HANDPAY, KEY): "attendant_key",
    (HANDPAY, HOST_ENABLE): "host_enable",
    # jackpot: a win locked for the attendant
    (JACKPOT, CASHOUT): "keep_cashout",
    (JACKPOT, KEY): "attendant_key",
    (JACKPOT, HOST_ENABLE): "host_enable",
    # payout: the hopper paying, or a coupon owed
    (PAYOUT, CASHOUT): "keep_cashout",
    (PAYOUT, KEY): "attendant_key",
    (PAYOUT, HOST_ENABLE): "host_enable",
    # spin: the award is pending while the reels turn
    (SPIN, CASHOUT): "keep_cashout",
    (SPIN, KEY): "attendant_key",
    (SPIN, HOST_ENABLE): "host_enable",
    # service: the audit key on and nothing owed: the technician's test game and the administrator's RAM clear
    (SERVICE, CASHOUT): "cashout_by_hand",
    (SERVICE, KEY): "attendant_key",
    (SERVICE, TEST): "play_test_game",
    (SERVICE, RAMCLEAR): "ram_clear",
    (SERVICE, HOST_DISABLE): "host_disable",
    (SERVICE, HOST_ENABLE): "host_enable",
    (SERVICE, HOST_TOURNAMENT): "host_tournament",
    # door: a door open
    (DOOR, CASHOUT): "cashout_by_hand",
    (DOOR, KEY): "attendant_key",
    (DOOR, NOTE): "settle_note",
    (DOOR, HOST_DISABLE): "host_disable",
    (DOOR, HOST_ENABLE): "host_enable",
    # tilt: a fault stops play and money in; credits are still cashed out
    (TILT, CASHOUT): "cashout",
    (TILT, KEY): "attendant_key",
    # a note of unknown fate (firmware/bill_in.py) is the "note" tilt, which the reset key cannot clear:
    # it cannot say stacked or returned. The attendant settles it, cash box counted, doors open or
    # shut; never while reels turn, a payout runs or a lock waits (those end first)
    (TILT, NOTE): "settle_note",
    (TILT, HOST_DISABLE): "host_disable",
    (TILT, HOST_ENABLE): "host_enable",
    # hold: a dealt poker hand waits for its holds and the draw
    (HOLD, PLAY): "draw",
    (HOLD, DRAW): "draw",
    (HOLD, HOLD_KEY): "toggle_hold",
    (HOLD, AUTO): "auto_hold",
    (HOLD, CASHOUT): "keep_cashout",
    (HOLD, KEY): "attendant_key",
    (HOLD, HOST_ENABLE): "host_enable",
    # audit: the audit key on while something is owed: test games, never a RAM clear
    (AUDIT, CASHOUT): "cashout_by_hand",
    (AUDIT, KEY): "attendant_key",
    (AUDIT, TEST): "play_test_game",
    (AUDIT, HOST_DISABLE): "host_disable",
    (AUDIT, HOST_ENABLE): "host_enable",
    (AUDIT, HOST_TOURNAMENT): "host_tournament",
    # credit: credits on the meter
    (CREDIT, BET): "bet_one",
    (CREDIT, MAX): "bet_max",
    (CREDIT, PLAY): "play",  # with too few credits: the panel says "insert"
    (CREDIT, DEAL): "play",
    (CREDIT, SPOT): "keno_spot",
    (CREDIT, QUICK): "keno_quick",
    (CREDIT, CLEAR): "keno_clear",
    (CREDIT, WAGER): "table_wager",
    (CREDIT, COUPON): "coupon_cashout",
    (CREDIT, CASHOUT): "cashout",
    (CREDIT, KEY): "attendant_key",
    (CREDIT, HOST_DISABLE): "host_disable",
    (CREDIT, HOST_ENABLE): "host_enable",
    (CREDIT, HOST_TOURNAMENT): "host_tournament",
    # idle: nothing on the meter
    (IDLE, BET): "bet_one",
    (IDLE, MAX): "bet_max",
    (IDLE, PLAY): "play",
    (IDLE, DEAL): "play",
    (IDLE, SPOT): "keno_spot",
    (IDLE, QUICK): "keno_quick",
    (IDLE, CLEAR): "keno_clear",
    (IDLE, WAGER): "table_wager",
    (IDLE, CASHOUT): "cashout",
    (IDLE, KEY): "attendant_key",
    (IDLE, HOST_DISABLE): "host_disable",
    (IDLE, HOST_ENABLE): "host_enable",
    (IDLE, HOST_TOURNAMENT): "host_tournament",
}
# money in: the acceptor and the validator are enabled only in these states (and below the credit
# limit); not while a dealt hand waits: its recall record's credits before and after must balance
MONEY_STATES = (IDLE, CREDIT, SPIN)
# the states a game is played from (the play rows above)
PLAY_STATES = (IDLE, CREDIT)
# the actions the game's play carries out (firmware/play.py GamePlay and its families): the cabinet
# hands it the event with itself (Cabinet.handle); every other action is the cabinet's own
PLAY_ACTIONS = ("bet_one", "bet_max", "play", "keno_spot", "keno_quick", "keno_clear", "toggle_hold", "auto_hold",
                "draw", "table_wager")


def action(state, event):
    """The cabinet method that carries out `event` in `state`, or None: refused."""
    return TABLE.get((state, event))
