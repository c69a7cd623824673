# ccTalk bill validator event codes (reply to header 159 with result A = 0, B = code), from the
# ccTalk generic specification part 3, "Bill validator event codes" table, each with the class
# the table gives it:
#   "status"  information (master inhibit active, stacker OK/removed/inserted/full, ...);
#   "reject"  the note went back to the player, no credit;
#   "fault"   the table's "Fatal Error": a jam or a failing part, an attendant must look;
#   "fraud"   the table's "Fraud Attempt": the firmware tilts (s. 94: no prize for a disruption).
# Codes 22..255 are not in the table: reported as "fault", so nothing unknown is taken as harmless.
# With A = 1..16 (a bill type), B = 0 means the note was stacked (credit it), B = 1 that it is held
# in escrow waiting for header 154 (route bill).
from board.compat import const

STATUS = "status"
REJECT = "reject"
FAULT = "fault"
FRAUD = "fraud"

MASTER_INHIBIT = const(0)
RETURNED = const(1)  # bill returned from escrow (route 0, or the validator's escrow timeout)
STACKER_OK = const(10)
STACKER_REMOVED = const(11)
STACKER_INSERTED = const(12)
STACKER_FULL = const(14)
BARCODE = const(20)  # a barcoded ticket is held in escrow: read it (header 129), then route it (154)

# one letter per code 0..21: s = status, r = reject, f = fatal error, x = fraud attempt
_KINDS = "ssrrssffxxsssfsffxxfss"
_K = {"s": STATUS, "r": REJECT, "f": FAULT, "x": FRAUD}
NAMES = (
    "master inhibit active", "bill returned from escrow", "invalid bill (validation fail)",
    "invalid bill (transport problem)", "inhibited bill (on serial)", "inhibited bill (on DIP switches)",
    "bill jammed in transport (unsafe mode)", "bill jammed in stacker", "bill pulled backwards",
    "bill tamper", "stacker OK", "stacker removed", "stacker inserted", "stacker faulty", "stacker full",
    "stacker jammed", "bill jammed in transport (safe mode)", "opto fraud detected", "string fraud detected",
    "anti-string mechanism faulty", "barcode detected", "unknown bill type stacked",
)
# header 154 replies other than ACK
ROUTE_ESCROW_EMPTY = const(254)
ROUTE_FAILED = const(255)


def kind(code):
    if code < len(_KINDS):
        return _K[_KINDS[code]]
    return FAULT


def name(code):
    if code < len(NAMES):
        return NAMES[code]
    return "unassigned code %d" % code
