# The console's access commands (login, logout, passwd, setup, account, security) and who may run
# what, mixed into firmware/console.py's Console: a session is (id, role); a PIN is asked on a line
# of its own (Console._ask) and never logged.
from board.compat import const
from firmware.accounts import ROLES, check_id, check_pin

_ATT = const(1)  # rights, one bit per role (firmware/accounts.py ROLES order)
_TECH = const(2)
_AUD = const(4)
_ADM = const(8)
_ANY = const(15)
# bytes kept in one piece from power-up where the first administrator can only come from the
# operator's enrolment: its RSA-3072 check works on numbers of ~420 bytes each (rng/crypto/rsa.py
# mulmod), and a vlt's 128K heap in pieces had none that large with 19 KB free (make fuzz seed
# 33487079: 'out of memory for enrol at rng/crypto/rsa.py:38 (mulmod)' two runs in six)
ENROL_RESERVE = const(4096)
# what each role may do: attendant meters (hand pays are the reset key's); technician test games,
# diagnostics, doors; auditor meters, recall, events, the security log, verify; administrator
# accounts, RAM clear, the tournament's prize pool and the validation id (the system's, SAS 4C, until
# a SAS link sets it), and everything the others may; the auditor, not the attendant, acknowledges
# coupon records for the system (they are kept until then). A command
# missing here is the administrator's alone.
RIGHTS = {"meters": _ATT | _AUD, "hardmeters": _ATT | _TECH | _AUD, "state": _ATT | _TECH | _AUD,
          "paytable": _ATT | _TECH | _AUD, "version": _ATT | _TECH | _AUD, "games": _ATT | _TECH | _AUD,
          "tournament": _ATT | _TECH | _AUD, "mem": _TECH | _AUD, "testgame": _TECH, "events": _AUD,
          "recall": _AUD, "security": _AUD, "security archive": _AUD, "verify": _AUD, "passwd": _ANY, "logout": _ANY,
          "tournament start": _ADM, "tournament end": _ADM, "coupons": _ATT | _AUD, "reprint": _ATT,
          "coupons ack": _AUD, "validation": _ATT | _TECH | _AUD, "validation set": _ADM,
          "note": _ATT | _TECH | _AUD, "note stacked": _ATT, "note returned": _ATT,
          "ticket": _ATT | _TECH | _AUD, "ticket stacked": _ATT, "ticket returned": _ATT}
ROLE_RIGHTS = (_ATT, _TECH, _AUD, _ANY | _ADM)
OPEN = ("help", "login", "setup", "enrol")
# what still runs while the security log is full (firmware/audit.py RESERVE): the way to archive it
LOG_FULL_OPEN = OPEN + ("logout", "security")


class AccessCommands:
    def _allowed(self, words):
        """None when the session may run the command line (split in words), else why not."""
        name = words[0]
        if name in OPEN:
            return None
        if self.accounts is None:
            return "no security memory: the console is closed"
        if self.accounts.empty():
            return self._no_account()
        if self.user is None:
            return "log in first: 'login ID'"
        au = self.audit
        if au is not None and au.full() and name not in LOG_FULL_OPEN:
            return ("security log full: records %d to %d are not archived; an auditor exports them ('security json') "
                    "and archives them ('security archive %d')" % (au.first_unarchived(), au.n, au.n))
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
            raise ValueError(self._no_account())
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

    def _no_account(self):
        from firmware import enrolment  # the first administrator's paths only: not in a running cabinet's heap

        if enrolment.audit_key_refused(self.accounts.lost(), self.cab.board.floor("enrol").read()):
            return "no account: %s ('enrol' says how)" % enrolment.SIGNED_ONLY
        return "no account yet: turn the audit key and 'setup ID' to make the first administrator"

    def keep_enrol_reserve(self):
        """Where only the operator's enrolment can make the first administrator (no account, and the
        memory was lost or the board enrolled before), ENROL_RESERVE bytes kept whole from now until
        the enrolment's signature check, which gets them (firmware/startup.py: at power-up, when
        the heap is still whole); nothing elsewhere, or where the heap has no such piece now."""
        self.enrol_reserve = None
        a = self.accounts
        if a is None or not a.empty():
            return
        from firmware import enrolment  # a machine with no account: one is to be made

        if not enrolment.audit_key_refused(a.lost(), self.cab.board.floor("enrol").read()):
            return  # a new machine: the audit key and 'setup' make the first (no signature)
        try:
            self.enrol_reserve = bytearray(ENROL_RESERVE)
        except MemoryError:
            pass

    def _first_admin(self):
        """Why no first administrator can be made now, or None (the audit key for either way)."""
        if self.accounts is None:
            return "no security memory: the console is closed"
        if not self.accounts.empty():
            return "accounts exist: 'login ID'"
        if not self.cab.audit_mode():
            return "turn the audit key first"
        return None

    def cmd_setup(self, args):
        from firmware import enrolment

        why = self._first_admin()
        if why:
            raise ValueError(why)
        floor = self.cab.board.floor("enrol")
        why = enrolment.audit_key_refused(self.accounts.lost(), floor.read())
        if why:
            raise ValueError(why + " ('enrol' says how)")
        if len(args) != 1:
            raise ValueError("usage: setup ID (the PIN is asked next, twice)")
        check_id(args[0])
        uid = args[0]
        self._ask = (self._new_pin, "setup " + uid, lambda pin: self._made_first(uid, pin, floor))
        self.say("new PIN for administrator %s:" % uid)

    def _made_first(self, uid, pin, floor):
        from firmware import enrolment

        if not self.cab.audit_mode():
            raise ValueError("turn the audit key first")
        if floor.read() is None:
            floor.write(enrolment.FIRST)  # first, on the board: from now on only the operator enrols
        self.accounts.add(uid, "administrator", pin)
        self._logged_in_first(uid)
        self.log("setup", "first administrator %s, logged in" % uid)
        self.say("administrator %s created; logged in" % uid)

    def _logged_in_first(self, uid):
        self.user = (uid, "administrator")
        self._seen = self.cab.board.ticks_ms()
        import sys  # the enrolment's module is given back to the heap: the first administrator is made

        sys.modules.pop("firmware.enrolment", None)
        firmware = sys.modules.get("firmware")
        if firmware is not None and hasattr(firmware, "enrolment"):
            delattr(firmware, "enrolment")

    def cmd_enrol(self, args):
        """The first administrator on a machine that had one, or lost its security memory: an
        enrolment the operator signed for this board and a number above its "enrol" floor."""
        from firmware import enrolment

        board = enrolment.board_id(self.cab.board.machine_secret())
        floor = self.cab.board.floor("enrol")
        if not args:
            self.say("board %s: ask the operator for enrolment number %d of an account id; then 'enrol ID N', "
                     "the PIN twice and the signature in %d lines of %d hex digits" % (
                         board, (floor.read() or 0) + 1, enrolment.LINES, enrolment.LINE_HEX))
            return
        why = self._first_admin()
        if why:
            raise ValueError(why)
        if enrolment.operator_key() is None:
            raise ValueError("no operator key in this image (code not from a signed image): no enrolment")
        if len(args) != 2 or not args[1].isdigit():
            raise ValueError("usage: enrol ID N (then the PIN twice and the operator's signature)")
        uid, number = args[0], int(args[1])
        check_id(uid)
        why = enrolment.number_refused(number, floor.read())
        if why:
            raise ValueError(why)
        # the signature's bytes in one buffer from here, each line into its place: no growing copy
        # of it per line (a last one of 384 bytes in a heap in pieces had no room)
        sig = bytearray(enrolment.LINES * enrolment.LINE_HEX // 2)
        self._ask = (self._new_pin, "enrol " + uid, lambda pin: self._enrol_sig(uid, number, pin, board, sig, 0))
        self.say("new PIN for administrator %s:" % uid)

    def _enrol_sig(self, uid, number, pin, board, sig, got, line=None):
        import binascii

        from firmware import enrolment

        if line is not None:
            try:
                if len(line) != enrolment.LINE_HEX:
                    raise ValueError
                n = enrolment.LINE_HEX // 2
                sig[got * n:(got + 1) * n] = binascii.unhexlify(line)
            except ValueError:  # the same words on every runtime
                raise ValueError("a signature line is %d hex digits: enrolment abandoned" % enrolment.LINE_HEX)
            got += 1
        if got < enrolment.LINES:
            self._ask = (self._enrol_sig, "enrol " + uid, uid, number, pin, board, sig, got)
            self.say("signature line %d of %d:" % (got + 1, enrolment.LINES))
            return
        if not self.cab.audit_mode():
            raise ValueError("turn the audit key first")
        import gc

        self.enrol_reserve = None  # the piece kept whole since power-up, for the check's numbers
        ledger = self.cab.ledger
        ledger.lend_stream(True)  # and the books' text stream, another piece made at power-up
        gc.collect()  # those, and the signature lines' garbage, given back before the check
        ok = False
        try:
            ok = enrolment.verify(enrolment.operator_key(), board, number, uid, sig)
            if not ok:
                raise ValueError("not an enrolment the operator signed for board %s, number %d, %s: nothing changed" % (
                    board, number, uid))
            floor = self.cab.board.floor("enrol")
            why = enrolment.number_refused(number, floor.read())
            if why:
                raise ValueError(why)
            floor.write(number)  # first, on the board: the enrolment is never used again
            self.accounts.add(uid, "administrator", pin)
            self._logged_in_first(uid)
            self.log("enrol", "first administrator %s by the operator's enrolment %d" % (uid, number))
        finally:
            if not ok:  # refused, or out of memory all the same: kept again for the next try
                self.keep_enrol_reserve()
            ledger.lend_stream(False)  # after the enrolment's records: its piece was theirs meanwhile
        self.say("administrator %s enrolled (operator's enrolment %d); logged in" % (uid, number))

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
        au = self.audit
        if args and args[0] == "json":
            self._security_json()
            self.uart.write(b"\r\n")
            return
        from firmware import localtime

        if args and args[0] == "status":
            self.say_json(au.status())
            return
        if args and args[0] == "archive":
            if len(args) != 2 or not args[1].isdigit():
                raise ValueError("usage: security archive N (records up to N, once 'security json' exported them)")
            upto = int(args[1])
            done = self._exported if self._exported and self._exported[0] == self.user[0] else None
            if done is None or upto > done[1]:
                raise ValueError("export the log first ('security json'): records up to %d were exported in this "
                                 "session" % (done[1] if done else 0))
            au.archive(upto, self.user[0])
            self.say("security log archived up to record %d; room for %d records" % (upto, au.room()))
            return
        if args:
            raise ValueError("usage: security [json | status | archive N]")
        for name in au.chunks():
            for n, t, who, code, text in au.chunk_records(name):
                self.say("%5d %s %-8s %-8s %s" % (n, localtime.stamp(t), who, code, text))
        st = au.status()
        self.say("archived up to %d, room for %d records; %d lines not journaled since %s (last: %s), "
                 "%d records without room" % (st["archived"], st["room"], st["noise"],
                                              localtime.stamp(st["since"]) if st["since"] else "-", st["last"] or "-",
                                              st["no_room"]))

    _exported = None  # (account, the last record number `security json` streamed in its session)

    def _security_json(self):
        # streamed a record at a time: [[n, t, who, code, text], ...]
        au = self.audit
        w = self.uart.write
        w(b"[")
        first = True
        last = 0
        for name in au.chunks():
            for rec in au.chunk_records(name):
                if not first:
                    w(b", ")
                self.write_json(rec)
                first = False
                last = rec[0]
        w(b"]")
        if self.user is not None:
            self._exported = (self.user[0], last)

