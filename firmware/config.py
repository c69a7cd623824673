# Cabinet configuration (operator settings). Money is integer cents; the credit is the unit of play.
DENOM_CENTS = 25  # one credit
# s. 4: only Canadian currency or the Company's tokens. Accepted coins by ccTalk coin identity
# ("CCvvvI": country, value, issue; "CA100T" is the house $1 token) -> value in cents. Only the
# acceptor positions that report a listed identity are enabled; any other coin is never credited.
COINS = {"CA100T": 100}
CREDIT_LIMIT = 4000  # above this, the acceptor is inhibited (no more money taken)
# Games offered, by model id: games/models/<id>.json checked at boot against games/certs/<id>.json.
# The first one that passes is played; a game that fails is disabled (event, console `games`).
GAMES = ("sept-royal-87",)
MODELS_DIR = "games/models"
CERTS_DIR = "games/certs"
ACCEPTOR_POLL_MS = 100  # well inside the 5-event buffer at any real coin rate; ccTalk devices inhibit if not polled
MACHINE_ID = "JTN-EMU-0001"
SAS_ADDRESS = 1  # the machine's address on the central system's SAS line (1-127)
VERSION = "0.1.0"
SPIN_MS = 500  # the reels turn this long; an award is paid at the end, or forfeited on a disruption (s. 94)
HOPPER = True  # a ccTalk payout hopper at address 3 on the ccTalk bus
PAYOUT_COIN = ("CA100T", 100)  # the hopper's coin: (ccTalk identity, value in cents), the $1 token
HOPPER_LIMIT = 400  # cash-outs above this many credits are paid by hand
EM_ON_MS = 50  # electromechanical meter pulse: coil on, then off, each at least this long
EM_OFF_MS = 50
JACKPOT_LIMIT = 1200  # a single win at or above this locks for a hand pay (0: never)
# Console access: no PIN here. Accounts are made on the machine (firmware/accounts.py).
PIN_TRIES = 3  # wrong PINs in a row before the console locks for PIN_LOCK_S, doubled per further one
PIN_LOCK_S = 60
SESSION_S = 300  # a console session ends after this long without a command
# A game's progressive jackpot (s. 91) is declared in its certified model. When the machine is on a
# link, the link's announced parameters (s. 92: same coins, same math): {"id", "bet", "math_hash"}, and
# "group" (1-255) when the link is the SAS system's progressive group (firmware/sas/progressive.py).
PROGRESSIVE_LINK = None
# The rules of a tournament the central system starts (SAS long poll 8C, firmware/sas/tournament.py), as
# the operator publishes them ahead (s. 125): {"fee", "games", "pct", "name"} as the console's 'tournament
# start' takes them; 8C gives the tournament credits and the length. None: 8C's enter is refused.
SAS_TOURNAMENT = None
# A ticket reader: the bill validator at ccTalk address 40 reads barcoded coupons, which the SAS
# system redeems for credits (long polls 70/71, firmware/sas/ticket_in.py); only under a profile
# with tickets_in (casino: firmware/jurisdiction.py) and a SAS port. Notes stay refused where the
# profile takes none (casino: "bills" false): the validator takes tickets only.
TICKET_IN = False
JURISDICTION = "casino"  # firmware/jurisdiction.py PROFILES: "casino" (S-13.1, r. 3) or "vlt" (S-13.1, r. 7)
# Redemption coupons (S-13.1, r. 7, s. 9): the scheme's name and the site operator's licence, printed
# on every coupon beside MACHINE_ID (firmware/coupon.py); at most 30 and 20 characters
COUPON_SCHEME = "LOTERIE VIDEO / VIDEO LOTTERY"
LICENCE_HOLDER = "EXPL-QC-000001"


class Config:
    """The configuration a cabinet runs under: the defaults above with the operator's overrides on
    top ({NAME: value}: the settings file, the command line, the signed configuration), checked
    whole (firmware/settings.py check) and settled once at power-up (firmware/configuration.py). The
    cabinet and its parts are given it and read it, as CoinIn and BillIn always did; nothing writes
    to it, nor to this module, once it is made."""

    def __init__(self, overrides=None):
        self._over = overrides or {}

    def __getattr__(self, name):  # only for a name not found on the object: a setting
        over = self._over
        if name in over:
            return over[name]
        try:
            return globals()[name]
        except KeyError:
            raise AttributeError(name)
