# Cabinet configuration (operator settings). Money is integer cents; the credit is the unit of play.
DENOM_CENTS = 25  # one credit
COIN_CENTS = {1: 100}  # ccTalk coin position -> value: position 1 is the casino's $1 token
CREDIT_LIMIT = 4000  # above this, the acceptor is inhibited (no more money taken)
GAME_MODEL = "games/models/skeleton3.json"
ACCEPTOR_POLL_MS = 200  # ccTalk devices expect a poll at least every second or they inhibit
MACHINE_ID = "JTN-EMU-0001"
VERSION = "0.1.0"
