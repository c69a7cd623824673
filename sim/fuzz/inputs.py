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
