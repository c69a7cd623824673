# ccTalk hopper "test hopper" flags (header 163 reply: up to 3 registers, bit n of register r is
# flag 8 * (r - 1) + n), from the ccTalk generic specification, part 2 (header 163), each with
# the event kind the firmware acts on (see board/cctalk_codes.py for the kinds). The flags marked
# (R) must be cleared by a software reset (header 1) before the next payout.
FAULT = "fault"
FRAUD = "fraud"
STATUS = "status"

ABS_MAX_CURRENT = 0
PAYOUT_TIMEOUT = 1
POWER_UP = 6
PAYOUT_DISABLED = 7
NV_CHECKSUM = 14
POWER_DOWN_DURING_PAYOUT = 16

FLAGS = (
    ("absolute maximum current exceeded", FAULT),  # 0 (R) over-current: jam or motor fault
    ("payout timeout", FAULT),  # 1 no coin seen on the exit sensor: hopper empty
    ("motor reversed to clear jam", STATUS),  # 2 warning only
    ("opto fraud: path blocked during idle", FRAUD),  # 3 (R)
    ("opto fraud: short-circuit during idle", FRAUD),  # 4 (R)
    ("opto blocked permanently during payout", FAULT),  # 5 (R) coin stuck in the exit: jam
    ("power-up detected", STATUS),  # 6 cleared by a software reset
    ("payout disabled", STATUS),  # 7 after power-up/reset until 164 enable
    ("opto fraud: short-circuit during payout", FRAUD),  # 8 (R)
    ("single coin payout mode", STATUS),  # 9
    ("use other hopper", STATUS),  # 10
    ("opto fraud: finger mismatch", FRAUD),  # 11 (R)
    ("motor reverse limit reached", FAULT),  # 12 (R) permanent jam
    ("inductive coil fault", FAULT),  # 13 (R)
    ("NV memory checksum error", FAULT),  # 14 paid/unpaid counters may be wrong
    ("PIN number mechanism", STATUS),  # 15
    ("power down during payout", STATUS),  # 16 (R) paid/unpaid tell what happened
    ("unknown coin type paid", FAULT),  # 17 (R)
    ("PIN number incorrect", FAULT),  # 18 (R)
    ("incorrect cipher key", FAULT),  # 19 (R)
    ("encryption enabled", STATUS),  # 20
)
NEEDS_RESET = (1 << 0) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 8) | (1 << 11) | (1 << 12) | \
    (1 << 13) | (1 << 16) | (1 << 17) | (1 << 18) | (1 << 19)


def kind(bit):
    return FLAGS[bit][1] if bit < len(FLAGS) else FAULT


def name(bit):
    return FLAGS[bit][0] if bit < len(FLAGS) else "unassigned flag %d" % bit


def flags_of(reply):
    """The 163 reply (1..3 register bytes) as one integer, register 1 in the low byte."""
    f = 0
    for i in range(min(len(reply), 3)):
        f |= reply[i] << (8 * i)
    return f
