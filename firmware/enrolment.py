# Who may make the first administrator (issue 22.8). On a brand-new machine, the audit key and
# `setup ID` (firmware/console_access.py), as before. But once this machine has had an administrator
# (the board's "enrol" floor, apart from the NVRAM part, was written then), or its security memory
# was lost (the accounts block says so), the audit key alone never enrols one again: a wiped NVRAM
# part must not hand the console to whoever holds the key. Then an enrolment signed by the
# operator is needed, made on the host by tools/operator.py:
#
#   message   "jeton-enrol/1 board=<board id> number=<N> id=<account id>"
#   signature RSASSA-PKCS1-v1_5 / SHA-256 of the message by the operator's key (jeton_key.OPERATOR,
#             the one that signs the configuration), typed after `enrol ID N` as LINES lines of
#             LINE_HEX hex digits (a console line holds 80 characters)
#
# The board id is HMAC-SHA256(machine secret, "jeton board id v1"), its first 8 bytes in hex: it names
# this board whatever its settings say, and is not the secret. N must be above the board's "enrol"
# floor, which takes N before the account is made: an enrolment is never used twice.
import hashlib

from rng.crypto.hmac_sha256 import hmac_sha256

FORMAT = "jeton-enrol/1"
SIG_BYTES = 384  # RSA-3072
LINE_HEX = 64
LINES = SIG_BYTES * 2 // LINE_HEX  # 12
FIRST = 0  # the "enrol" floor once the first administrator was made with the audit key
MAX_NUMBER = 999999999
SIGNED_ONLY = "this machine had accounts or lost its security memory: enrolment needs the operator's signature"


def operator_key():
    """(modulus bytes, exponent) of the operator's key in the image (jeton_key.OPERATOR), or None:
    code not from a signed image. Looked up when an enrolment needs it, not kept in the heap."""
    from firmware import authenticate

    return authenticate.builtin_operator()


def board_id(secret):
    """This board's identity for an enrolment: 16 hex digits derived from its machine secret."""
    return "".join("%02x" % b for b in hmac_sha256(secret, b"jeton board id v1")[:8])


def message(board, number, uid):
    """The bytes the operator signs for enrolment number `number` of account `uid` on `board`."""
    return ("%s board=%s number=%d id=%s" % (FORMAT, board, number, uid)).encode()


def audit_key_refused(lost, floor):
    """None when the audit key and `setup` may make the first administrator: no account was ever
    made on this board (floor None) and the security memory was never lost; else why not."""
    if floor is not None or lost:
        return SIGNED_ONLY
    return None


def number_refused(number, floor):
    """None when `number` may be used for an enrolment on a board whose floor is `floor`."""
    if not 1 <= number <= MAX_NUMBER:
        return "an enrolment number is 1 to %d" % MAX_NUMBER
    if floor is not None and number <= floor:
        return "enrolment %d was used or is older: the next is above %d" % (number, floor)
    return None


def verify(key, board, number, uid, sig):
    """True when sig is the operator's signature of this enrolment (key: (modulus, exponent))."""
    from rng.crypto import rsa

    return rsa.verify(key[0], key[1], hashlib.sha256(message(board, number, uid)).digest(), sig)
