"""What the fuzz rules draw from: the inputs of the outside world, as values (no behaviour here).

Codes are the peers' own protocol's, cited where they come from; a rule (sim/fuzz/rules.py) picks
among them and the oracle (sim/fuzz/oracle.py) judges what the firmware made of them.
"""
from __future__ import annotations

from firmware import config
from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.fuzz.games import ROOT

JURISDICTIONS = ("casino", "casino", "vlt")
PRINTER_KINDS = ("paper_out", "jam", "head_open", "silent", "low", "fix", "reprint")
# the peer's house token is ccTalk coin id "CA100T" (CCvvvI: Canada, 100 cents, issue T): $1
TOKEN_ID = "CA100T"
TOKEN_CENTS = 100
TOKEN_CREDITS = TOKEN_CENTS // config.DENOM_CENTS
UNKNOWN_POSITION = 9  # a coin the acceptor does not recognise: it answers a reject event
# ccTalk Generic Specification, table of error codes for header 229 (event B with A = 0)
REJECT_CODES = (1, 2, 8, 25)
FAULT_CODES = (5, 6, 14, 15)
FRAUD_CODES = (17, 20, 40)
ACCEPTOR_FAULTS = hasattr(CoinAcceptorPeer, "replay") and hasattr(CoinAcceptorPeer, "jump")
ACCEPTOR_KINDS = ("unknown", "foreign", "reject", "fault", "fraud", "lost") + (("replay", "jump") if ACCEPTOR_FAULTS else ())
LINE_MAX = 80  # the console's line limit
PLAYER = ("token", "token", "token", "bet_one", "bet_max", "play", "play", "play", "play", "cashout", "key",
          "quick",  # quick: a keno quick pick on the player's screen (a reel game ignores the touch)
          "hold", "hold", "auto")  # video poker's hold key (card: the action's place % 5 + 1), auto-hold
READ_COMMANDS = ("help", "meters", "meters json", "state", "paytable fr", "paytable en", "games", "events",
                 "recall", "recall json", "hardmeters", "hardmeters json", "mem", "version", "tournament")
QUICK_SPOTS = 5  # offered by every shipped keno pay table
PRIVILEGED = ("testgame", "ramclear", "ramclear 0000", "tournament start 1 100 5 30", "tournament end")
POWER_DURING = ("idle", "token", "play", "cashout", "door", "key")
SWITCHES = ("door_main", "door_logic", "door_cashbox", "key_audit")
HOPPER_FAULTS = ("jam", "empty", "low", "refill")
ENTROPY = "entropy" in (ROOT / "board" / "emulated.py").read_text()

# --- a vlt's --------------------------------------------------------------------------------------------
NOTE_TYPES = (1, 2, 3, 4, 5)  # sim/cctalk_bills.py CANADIAN: $5, $10, $20, $50, $100
# the ccTalk bill validator event codes (generic specification part 3's table, as board/bill_codes.py
# classes them): a note handed back; fatal errors (and 30, a code the table does not have); fraud attempts
BILL_REJECT_CODES = (2, 3)
BILL_FAULT_CODES = (6, 7, 13, 15, 16, 19, 30)
BILL_FRAUD_CODES = (8, 9, 17, 18)
VALIDATOR_KINDS = ("reject", "fault", "fraud", "stacker", "jam", "clear", "lost", "replay", "jump", "burst",
                   "pending_replay", "pending_jump", "pending_lost")
ATTENDANT_KINDS = ("settle", "settle", "in_payout", "nothing")
VALIDATION_KINDS = ("new", "seq_up", "seq_down", "bad")
ACK_KINDS = ("all", "all", "oldest", "owed", "unknown")
COUPON_MEMORY_KINDS = ("zero", "flip", "counter", "late")
# the vlt profile's limits in cents (docs/reference/vlt-rules.md: a bet of at most $2.50, one game
# paying at most $1,000; S-13.1, r. 7, s. 6; L-6, r. 3, s. 4), as the screen's frame gives them
VLT_MAX_PRIZE_CENTS = 100000
VLT_LIMITS = {"bet": 250, "prize": VLT_MAX_PRIZE_CENTS}

# --- the technician's and the operator's --------------------------------------------------------------
DENOMS = (25, 25, 10)  # cents a credit the operator may configure (both divide the token and every note)
OWE = ("nothing", "nothing", "credits", "coupon", "as_is")  # what is owed when the jurisdiction or credit value changes
CONFIG_KINDS = ("newer", "older", "tampered", "other_key", "other_machine", "settings", "deleted")
SECURITY_KINDS = ("flood", "archive", "fill", "lost", "lost_nvram")
HAND_WORDS = ("deal", "draw", "hold", "auto")
# a progressive near its ceiling: units below it (1/den credit; a bet-3 game adds 3), and rolled over
PRESET_BELOW = (0, 1, 2, 3, 4, 6, 3000)
PRESET_ROLLED = (0, 0, 1, 999, 25000)

# --- the central system's (SAS: docs/sas.md) -----------------------------------------------------------
SAS_METER_POLLS = ("1A", "0F", "1C", "2F", "6F")
SAS_NOISE = ("bad_crc", "other_address", "partial", "flood")
SAS_ORDERS = ("01/02", "06/07", "0A/0B", "09")  # a disable and, in the same step, its enable
SAS_CLOCK = ("set", "set", "cut", "bogus", "all")  # 7F then 7E (firmware/sas/control.py); cut: a power cut between
SAS_REPEATS = ("1C", "0F", "01/02")  # a long poll sent twice with no poll between (SAS 6.02 s. 3.2)
SAS_TOURNAMENT = ("start", "enter", "exit", "meters", "meters")  # 8C and 95-99 (firmware/sas/tournament.py)
ROM_SIGNATURES = 1  # 21 computes over the whole image (seconds): once a sequence
# SAS meter codes (Table C-7) a 2F / 6F may ask for: some Jeton keeps, some it does not (77, 7F)
SAS_METER_CODES = (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0B, 0x0C, 0x16, 0x22, 0x23, 0x24,
                   0x77, 0x7F)
# SAS 6.02 Table A-1 codes (saspy's models/GPoll.py lists them) this cabinet's events may raise: doors (11,
# 12, 15, 16, 19, 1A; while off 98, 99, 9A), power (17, 18), tilts (20, 21, 22, 28, 29, 2C, 37, 3F), RAM
# clear 3A, coupon 3D, notes 47-50, hand pay 51/52, progressive 53/54, printer 60/61/74/78, cash-out 66,
# buffer overflow 70, game 7E/7F, a new release 36; a cash-out waiting for the system's number 57
SAS_RAISED = frozenset((0x11, 0x12, 0x15, 0x16, 0x19, 0x1A, 0x98, 0x99, 0x9A, 0x17, 0x18, 0x20, 0x21, 0x22, 0x28,
                        0x29, 0x2C, 0x36, 0x37, 0x3F, 0x3A, 0x3D, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E,
                        0x4F, 0x50, 0x51, 0x52, 0x53, 0x54, 0x60, 0x61, 0x74, 0x78, 0x66, 0x70, 0x7E, 0x7F, 0x57,
                        0x67, 0x68))
# a ticket presented to a casino's ticket reader (sim/fuzz/rules_sas.py sas_ticket_in): the system's
# answer to its 70/71 cycle
TICKET_ANSWERS = ("redeem", "redeem", "reject", "silence", "cut")
# a linked progressive (sim/fuzz/rules.py power_on `link`, rules_sas.py sas_progressive): its SAS
# group in four casino sequences of ten, and its controller's first level 1 in cents
LINK_GROUPS = (None,) * 6 + (1, 9, 200, 255)
LINK_START_CENTS = (0, 2510, 37500, 37499, 60001, 100000, 100026, 9999999999)
# what the controller does (sas_progressive): a new level, a silence past 5 s, another group's
# broadcast, a malformed one, a new level between a game's wager and a power cut
LINK_KINDS = ("level", "level", "silent", "other", "malformed", "cut")
LINK_SILENCES = 2  # silences a sequence (each costs 5.8 s)
# broadcasts the machine NACKs and keeps nothing of (docs/sas.md): (name, frame after the address, CRC added)
LINK_MALFORMED = ("group0", "level0", "level21", "notbcd", "length", "length86short")
