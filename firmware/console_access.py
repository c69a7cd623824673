# The console's access commands (login, logout, passwd, setup, account, security) and who may run
# what, mixed into firmware/console.py's Console: a session is (id, role); a PIN is asked on a line
# of its own (Console._ask) and never logged.
import json

from board.compat import const
from firmware.accounts import ROLES, check_id, check_pin

_ATT = const(1)  # rights, one bit per role (firmware/accounts.py ROLES order)
_TECH = const(2)
_AUD = const(4)
_ADM = const(8)
_ANY = const(15)
# what each role may do: attendant meters (hand pays are the reset key's); technician test games,
# diagnostics, doors; auditor meters, recall, events, the security log, verify; administrator
# accounts, RAM clear, the tournament's prize pool and the validation id (the system's, SAS 4C, until
# a SAS link sets it), and everything the others may; the auditor, not the attendant, acknowledges
# coupon records for the system (they are kept until then). A command
# missing here is the administrator's alone.
RIGHTS = {"meters": _ATT | _AUD, "hardmeters": _ATT | _TECH | _AUD, "state": _ATT | _TECH | _AUD,
          "paytable": _ATT | _TECH | _AUD, "version": _ATT | _TECH | _AUD, "games": _ATT | _TECH | _AUD,
          "tournament": _ATT | _TECH | _AUD, "mem": _TECH | _AUD, "testgame": _TECH, "events": _AUD,
          "recall": _AUD, "security": _AUD, "verify": _AUD, "passwd": _ANY, "logout": _ANY,
          "tournament start": _ADM, "tournament end": _ADM, "coupons": _ATT | _AUD, "reprint": _ATT,
          "coupons ack": _AUD, "validation": _ATT | _TECH | _AUD, "validation set": _ADM,
          "note": _ATT | _TECH | _AUD, "note stacked": _ATT, "note returned": _ATT}
ROLE_RIGHTS = (_ATT, _TECH, _AUD, _ANY | _ADM)
OPEN = ("help", "login", "setup")


class AccessCommands:
    def _allowed(self, words):
        """None when the session may run the command line (split in words), else why not."""
        name = words[0]
        if name in OPEN:
            return None
        if self.accounts is None:
            return "no security memory: the console is closed"
        if self.accounts.empty():
            return "no account yet: turn the audit key and 'setup ID' to make the first administrator"
        if self.user is None:
            return "log in first: 'login ID'"
        if len(words) > 1 and "%s %s" % (name, words[1]) in RIGHTS:
            name = "%s %s" % (name, words[1])  # e.g. 'tournament end': the prize pool is money
        if not ROLE_RIGHTS[ROLES.index(self.user[1])] & RIGHTS.get(name, _ADM):
            return "%s is not for a%s %s" % (name, "n" if self.user[1][0] in "aeiou" else "", self.user[1])
        return None

    # --- sessions and accounts -----------------------------------------------------------------------
    def cmd_login(self, args):
        if len(args) != 1:
            raise ValueError("usage: login ID (the PIN is asked next)")
        if self.accounts is None:
            raise ValueError("no security memory: the console is closed")
        if self.accounts.empty():
            raise ValueError("no account yet: turn the audit key and 'setup ID' to make the first administrator")
        left = self.accounts.wait_s()
        if left:
            self.log("refused", "login %s: locked, %d s left" % (args[0], left), args[0])
            raise ValueError("locked after %d wrong PINs: wait %d s" % (self.accounts.fails, left))
        self._end("new login")
        self._ask = (self._login_pin, "login " + args[0], args[0])
        self.say("PIN for %s:" % args[0])

    def _login_pin(self, uid, pin):
        role = self.accounts.check(uid, pin)
        self.user = (uid, role)
        self._seen = self.cab.board.ticks_ms()
        self.log("login", role)
        self.say("logged in as %s (%s)" % (uid, role))

    def cmd_logout(self, args):
        uid = self.user[0]
        self._end("by %s" % uid)
        self.say("logged out")

    def _new_pin(self, then, pin):
        check_pin(pin)
        self._ask = (self._same_pin, "new PIN again", then, pin)
        self.say("the same again:")

    def _same_pin(self, then, pin, again):
        if again != pin:
            raise ValueError("the two PINs differ: nothing changed")
        then(pin)

    def cmd_setup(self, args):
        if self.accounts is None:
            raise ValueError("no security memory: the console is closed")
        if not self.accounts.empty():
            raise ValueError("accounts exist: 'login ID'")
        if not self.cab.audit_mode():
            raise ValueError("turn the audit key first")
        if len(args) != 1:
            raise ValueError("usage: setup ID (the PIN is asked next, twice)")
        check_id(args[0])
        uid = args[0]
        self._ask = (self._new_pin, "setup " + uid, lambda pin: self._made_first(uid, pin))
        self.say("new PIN for administrator %s:" % uid)

    def _made_first(self, uid, pin):
        if not self.cab.audit_mode():
            raise ValueError("turn the audit key first")
        self.accounts.add(uid, "administrator", pin)
        self.user = (uid, "administrator")
        self._seen = self.cab.board.ticks_ms()
        self.log("setup", "first administrator %s, logged in" % uid)
        self.say("administrator %s created; logged in" % uid)

    def cmd_passwd(self, args):
        uid = self.user[0]
        self._ask = (self._passwd_old, "passwd " + uid, uid)
        self.say("current PIN:")

    def _passwd_old(self, uid, pin):
        self.accounts.check(uid, pin)
        self._ask = (self._new_pin, "passwd " + uid, lambda new: self._passwd_set(uid, new))
        self.say("new PIN:")

    def _passwd_set(self, uid, pin):
        self.accounts.set_pin(uid, pin)
        self.log("passwd", "PIN of %s changed" % uid)
        self.say("PIN changed")

    def cmd_account(self, args):
        acc = self.accounts
        if args == ["list"]:
            for uid, role in acc.listing():
                self.say("%-8s %s" % (uid, role))
            return
        if len(args) == 3 and args[0] == "add":
            uid, role = args[1], args[2]
            check_id(uid)
            if role not in ROLES:
                raise ValueError("role must be one of %s" % ", ".join(ROLES))
            if acc.find(uid):
                raise ValueError("account %s exists" % uid)
            self._ask = (self._new_pin, "account add " + uid, lambda pin: self._added(uid, role, pin))
            self.say("new PIN for %s:" % uid)
            return
        if len(args) == 2 and args[0] == "del":
            if args[1] == self.user[0]:
                raise ValueError("you cannot delete your own account")
            acc.delete(args[1])
            self.say("account %s deleted" % args[1])
            return
        raise ValueError("usage: account list | account add ID ROLE | account del ID")

    def _added(self, uid, role, pin):
        self.accounts.add(uid, role, pin)
        self.log("account", "added %s (%s)" % (uid, role))
        self.say("account %s (%s) added" % (uid, role))

    def cmd_security(self, args):
        if args and args[0] == "json":
            self._security_json()
            self.uart.write(b"\r\n")
            return
        from firmware import localtime

        au = self.audit
        for name in au.chunks():
            for n, t, who, code, text in au.chunk_records(name):
                self.say("%5d %s %-8s %-8s %s" % (n, localtime.stamp(t), who, code, text))

    def _security_json(self):
        # streamed a record at a time: [[n, t, who, code, text], ...]
        au = self.audit
        w = self.uart.write
        w(b"[")
        first = True
        for name in au.chunks():
            for rec in au.chunk_records(name):
                if not first:
                    w(b", ")
                w(json.dumps(rec).encode())
                first = False
        w(b"]")

