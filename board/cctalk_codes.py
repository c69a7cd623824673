# ccTalk coin acceptor error codes (reply to header 229, A = 0, B = code), from the ccTalk generic
# specification part 3 ("Coin acceptor error codes" table), each given the event kind the
# firmware acts on:
#   "reject"  coin returned to the player, no credit: information only;
#   "fault"   the acceptor is (or may be) jammed or failing: log, call an attendant;
#   "fraud"   a fraud attempt: the firmware tilts and inhibits (by-law s. 94: no prize to a
#             player who disrupts the machine);
#   "status"  no coin and no fault (null event, data request).
# Codes 41..127 and 160..252 are unassigned in the table: reported as "fault" so that nothing
# unknown is ever taken as harmless.
from board.compat import const

REJECT = "reject"
FAULT = "fault"
FRAUD = "fraud"
STATUS = "status"

# one letter per code 0..40: r = reject, f = fault, x = fraud, s = status
_KINDS = "srrrffffrrrrrfffxxxxxfxxxxfffxfffrxfxxxfx"
_K = {"r": REJECT, "f": FAULT, "x": FRAUD, "s": STATUS}
NAMES = (
    "null event", "reject coin", "inhibited coin", "multiple window", "wake-up timeout",
    "validation timeout", "credit sensor timeout", "sorter opto timeout", "2nd close coin error",
    "accept gate not ready", "credit sensor not ready", "sorter not ready",
    "reject coin not cleared", "validation sensor not ready", "credit sensor blocked",
    "sorter opto blocked", "credit sequence error", "coin going backwards",
    "coin too fast (credit sensor)", "coin too slow (credit sensor)", "C.O.S. mechanism activated",
    "DCE opto timeout", "DCE opto not seen", "credit sensor reached too early",
    "reject coin (repeated sequential trip)", "reject slug", "reject sensor blocked",
    "games overload", "max. coin meter pulses exceeded", "accept gate open not closed",
    "accept gate closed not open", "manifold opto timeout", "manifold opto blocked",
    "manifold not ready", "security status changed", "motor exception", "swallowed coin",
    "coin too fast (validation sensor)", "coin too slow (validation sensor)",
    "coin incorrectly sorted", "external light attack",
)
INHIBITED_TYPE_FIRST = const(128)  # 128..159: inhibited coin of type 1..32
INHIBITED_TYPE_LAST = const(159)
DATA_BLOCK_REQUEST = const(253)
COIN_RETURN = const(254)  # coin return mechanism activated (flight deck open)
UNSPECIFIED = const(255)


def kind(code):
    if code < len(_KINDS):
        return _K[_KINDS[code]]
    if INHIBITED_TYPE_FIRST <= code <= INHIBITED_TYPE_LAST:
        return REJECT
    if code == DATA_BLOCK_REQUEST:
        return STATUS
    return FAULT  # 254, 255 and every unassigned code


def name(code):
    if code < len(NAMES):
        return NAMES[code]
    if INHIBITED_TYPE_FIRST <= code <= INHIBITED_TYPE_LAST:
        return "inhibited coin (type %d)" % (code - INHIBITED_TYPE_FIRST + 1)
    if code == DATA_BLOCK_REQUEST:
        return "data block request"
    if code == COIN_RETURN:
        return "coin return mechanism activated"
    if code == UNSPECIFIED:
        return "unspecified alarm code"
    return "unassigned code %d" % code
