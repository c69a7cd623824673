# Console accounts and the console's lockout, both kept in the security memory (firmware/audit.py).
#
# An account is [id, role, salt, key, iterations]: key = PBKDF2-HMAC-SHA256(PIN, salt, iterations),
# salt from the machine's RNG, so two machines (or two accounts) with the same PIN store different
# keys. There is no default credential: with no account, the console asks for the first
# administrator (firmware/console.py 'setup', audit key turned).
#
# The lockout counts wrong PINs in critical memory, and the try is counted BEFORE the PIN is
# checked: cutting the power while the answer is computed cannot take a try back. From PIN_TRIES
# wrong PINs on, each further try waits PIN_LOCK_S, doubled per wrong PIN up to MAX_LOCK_S; at
# power-up a lock starts over in full (the board's clock restarts with it), so a reboot never
# shortens a wait. One console port, one counter: a guess at any account id counts.
import binascii
import json

from board.compat import const, ticks_add, ticks_diff
from rng.crypto.hmac_sha256 import equal
from rng.crypto.pbkdf2 import pbkdf2_sha256

ROLES = ("attendant", "technician", "auditor", "administrator")
ADMIN = const(3)  # ROLES index
ITERATIONS = const(2000)  # sized for a board: see docs/console.md "Accounts" for the figures
SALT = const(16)
MAX_ACCOUNTS = const(8)  # 8 accounts fit ACCOUNTS_SIZE (firmware/audit.py) with room to spare
MAX_ID = const(8)
MIN_PIN = const(6)
MAX_PIN = const(64)
MAX_LOCK_S = const(3600)
_ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_"
# the accounts block of a security memory started afresh after it was lost ("l"): from then on only
# an enrolment the operator signs makes the first administrator (firmware/enrolment.py)
LOST = b'{"a": [], "f": 0, "l": 1}'


def backoff_s(fails, tries, lock_s):
    """Seconds the console stays locked after `fails` wrong PINs in a row."""
    if fails < tries:
        return 0
    return min(lock_s << min(fails - tries, 12), MAX_LOCK_S)


def check_id(uid):
    if not 1 <= len(uid) <= MAX_ID:
        raise ValueError("an account id is 1 to %d characters" % MAX_ID)
    for ch in uid:
        if ch not in _ID_CHARS:
            raise ValueError("an account id holds a-z, 0-9, '-' and '_' only")


def check_pin(pin):
    if not MIN_PIN <= len(pin) <= MAX_PIN:
        raise ValueError("a PIN or passphrase is %d to %d characters" % (MIN_PIN, MAX_PIN))


class Accounts:
    """load() -> bytes (b"" when none), save(bytes) commits the block, random(n) -> n bytes,
    clock() -> board ticks in ms."""

    def __init__(self, load, save, random, clock, tries, lock_s, iterations=ITERATIONS):
        self._save = save
        self._random = random
        self._clock = clock
        self.tries = tries
        self.lock_s = lock_s
        self.iterations = iterations
        raw = load()
        self.st = json.loads(raw) if raw else {"a": [], "f": 0}
        self._until = None
        self._lock()  # a lock on record starts over in full at power-up

    def _commit(self):
        self._save(json.dumps(self.st).encode())

    def _lock(self):
        s = backoff_s(self.st["f"], self.tries, self.lock_s)
        self._until = ticks_add(self._clock(), s * 1000) if s else None

    # --- the accounts --------------------------------------------------------------------------------
    def empty(self):
        return not self.st["a"]

    def lost(self):
        """Whether this security memory was started afresh after it was lost (accounts gone)."""
        return bool(self.st.get("l"))

    def find(self, uid):
        for a in self.st["a"]:
            if a[0] == uid:
                return a
        return None

    def role(self, uid):
        a = self.find(uid)
        return ROLES[a[1]] if a else None

    def listing(self):
        """[(id, role), ...] in id order."""
        out = [(a[0], ROLES[a[1]]) for a in self.st["a"]]
        out.sort()
        return out

    def _key(self, pin, salt, iterations):
        return pbkdf2_sha256(pin.encode(), salt, iterations)

    def _entry(self, uid, role, pin):
        salt = bytes(self._random(SALT))
        key = self._key(pin, salt, self.iterations)
        return [uid, role, binascii.hexlify(salt).decode(), binascii.hexlify(key).decode(), self.iterations]

    def add(self, uid, role, pin):
        check_id(uid)
        if role not in ROLES:
            raise ValueError("role must be one of %s" % ", ".join(ROLES))
        check_pin(pin)
        if self.find(uid):
            raise ValueError("account %s exists" % uid)
        if len(self.st["a"]) >= MAX_ACCOUNTS:
            raise ValueError("%d accounts at most" % MAX_ACCOUNTS)
        self.st["a"].append(self._entry(uid, ROLES.index(role), pin))
        self._commit()

    def delete(self, uid):
        a = self.find(uid)
        if a is None:
            raise ValueError("no account %s" % uid)
        if a[1] == ADMIN and sum(1 for b in self.st["a"] if b[1] == ADMIN) == 1:
            raise ValueError("%s is the last administrator" % uid)
        self.st["a"].remove(a)
        self._commit()

    def set_pin(self, uid, pin):
        check_pin(pin)
        a = self.find(uid)
        if a is None:
            raise ValueError("no account %s" % uid)
        a[2:] = self._entry(uid, a[1], pin)[2:]
        self._commit()

    # --- logging in ----------------------------------------------------------------------------------
    @property
    def fails(self):
        return self.st["f"]

    def wait_s(self):
        """Seconds left before the console takes a PIN again (0: open)."""
        if self._until is None:
            return 0
        left = ticks_diff(self._until, self._clock())
        if left <= 0:
            self._until = None
            return 0
        return (left + 999) // 1000

    def check(self, uid, pin):
        """The role of uid when pin is its PIN; ValueError otherwise (and while locked)."""
        left = self.wait_s()
        if left:
            raise ValueError("locked after %d wrong PINs: wait %d s" % (self.st["f"], left))
        self.st["f"] += 1
        self._commit()  # counted before the answer is known: a power cut now cannot undo the try
        a = self.find(uid)
        if a is None:
            self._key(pin, b"\x00" * SALT, self.iterations)  # as long as a real check: ids stay unknown
            ok = False
        else:
            ok = equal(self._key(pin, binascii.unhexlify(a[2]), a[4]), binascii.unhexlify(a[3]))
        if ok:
            self.st["f"] = 0
            self._commit()
            return ROLES[a[1]]
        self._lock()
        s = backoff_s(self.st["f"], self.tries, self.lock_s)
        raise ValueError("wrong account or PIN" + (": locked for %d s" % s if s else ""))
