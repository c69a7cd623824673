# Maintenance console on a UART: line commands from a technician's terminal, replies then a prompt.
#
# Input discipline (a console command can clear memory or start a tournament, so a command runs only
# from a line exactly as typed):
# - a line ends at CR, LF or CR LF; every line end gets exactly one prompt;
# - a line is printable ASCII, at most MAX_LINE characters after backspace edits; anything else
#   (a longer line, a control byte, a byte of a wrong baud rate) is refused whole, in one line;
# - input the UART lost (its receive ring overran while the cabinet was busy, e.g. waiting for a
#   ccTalk reply) breaks the line it fell in: that line is discarded and the loss reported in one
#   line, so two commands never merge into one.
#
# Access (issue 11): every command but help, login and setup needs a logged-in account whose role
# allows it (firmware/console_access.py RIGHTS), and every command, login, logout and refusal is written to the security
# log (firmware/audit.py) with the account before the console answers. A PIN is asked on a line of
# its own and never logged. One session at a time; it ends on logout, after SESSION_S without a
# command, and when another peer takes the link.
import json

from board.compat import const, ticks_diff
from board.json_out import JsonOut
from firmware.console_access import AccessCommands

PROMPT = b"jeton> "
MAX_LINE = const(80)
JSON_PIECE = const(128)  # bytes of a JSON answer gathered before they go to the port
SAY_PIECE = const(128)  # characters of a long line encoded and written at a time (say)
_OK = const(0)  # the line so far is well formed
_LONG = const(1)  # longer than MAX_LINE: refused at its end
_BYTE = const(2)  # a byte that is not printable ASCII: refused at its end
_LOST = const(3)  # the UART lost input inside it: discarded at its end
# what a line from no session leaves in the security log: a count, not a record (firmware/audit.py);
# so does a refused or unknown line while the log is full
NOISE = ("ok", "error", "refused", "unknown")


# what the reading commands import: stateless modules a frozen image drops after each command
READ_MODULES = ("firmware.console_read", "firmware.money", "firmware.localtime", "firmware.console_coupons",
                "games.table_text")


def _release(name):
    """A module that only some commands use (firmware/console_read.py) leaves the heap when the
    command is done, as firmware/main.py releases the boot's: frozen, its code stays in flash and
    a later command imports it again, so an idle cabinet's heap does not carry it. (Compiled from
    source it stays: compiling it again at every command would fragment the heap.)"""
    import sys

    if sys.modules.pop(name, None) is not None:
        parent, _, child = name.rpartition(".")
        try:
            delattr(sys.modules[parent], child)
        except (KeyError, AttributeError):
            pass


class Console(AccessCommands):
    def __init__(self, uart, cabinet, accounts=None, audit=None, release=()):
        self.uart = uart
        self.cab = cabinet
        self.accounts = accounts  # firmware/accounts.py Accounts; None: no security memory, no access
        self.enrol_reserve = None  # console_access.keep_enrol_reserve: a piece for an enrolment's check
        self.audit = audit  # firmware/audit.py Audit
        self.user = None  # (id, role) of the session, or None
        self._seen = 0  # board ticks of the session's last command
        self._ask = None  # (handler, *args): the next line is an answer (a PIN), not a command
        self._said = None  # the first line of a command's reply: its result, for the security log
        self._peer = getattr(uart, "peers", None)  # the emulated link counts its peers
        self._line = bytearray(MAX_LINE)
        self._len = 0
        self._bad = _OK
        self._badbyte = 0
        self._lost = 0  # bytes the UART lost inside the current line
        self._cr = False  # the last line ended with CR: an LF right after it ends nothing
        self._buf = bytearray(64)
        # the emulated board's UART says where it lost input; a plain machine.UART does not
        self._take_overrun = getattr(uart, "take_overrun", None)
        self.release = release  # modules to drop after each command (firmware/startup.py: READ_MODULES when frozen)
        self.commands = {
            "help": (self.cmd_help, "this list"),
            "login": (self.cmd_login, "'login ID', then the PIN on the next line"),
            "logout": (self.cmd_logout, "end the session"),
            "passwd": (self.cmd_passwd, "change your PIN (asked on the next lines)"),
            "setup": (self.cmd_setup, "no account yet, audit key on: 'setup ID' makes the first administrator"),
            "enrol": (self.cmd_enrol, "audit key on, an enrolment the operator signed: 'enrol ID N' (alone: how)"),
            "account": (self.cmd_account, "administrator: 'account list' / 'account add ID ROLE' / 'account del ID'"),
            "security": (self.cmd_security, "security log: logins, commands, refusals ('security json' / "
                                            "'security status' / 'security archive N')"),
            "meters": (self.cmd_meters, "soft meters: credits and dollars, or counts ('meters json' for machines)"),
            "state": (self.cmd_state, "cabinet state in words: credits, bet, tilts, lock, doors, last game"),
            "paytable": (self.cmd_paytable, "game rules, prizes and the progressive ('paytable en' / 'paytable fr')"),
            "version": (self.cmd_version, "firmware version and board"),
            "hardmeters": (self.cmd_hardmeters, "electromechanical meters: count, pulses pending ('hardmeters json')"),
            "mem": (self.cmd_mem, "heap in use and free; NVRAM bytes written (flash wear)"),
            "games": (self.cmd_games, "offered games and their boot check (s. 93 certificates)"),
            "events": (self.cmd_events, "event log in local time, newest last ('events json')"),
            "recall": (self.cmd_recall, "last 10 games: time, symbols ('recall fr' in French, 'recall json' to export)"),
            "testgame": (self.cmd_testgame, "technician, audit key on: play a test game (meters untouched)"),
            "tournament": (self.cmd_tournament, "status and rules; administrator, audit key: "
                           "'tournament start FEE CREDITS GAMES PCT DATE HOURS [NAME]' / 'tournament end'"),
            "ramclear": (self.cmd_ramclear, "administrator, audit key on, nothing owed (or a RAM error): "
                         "clears critical memory (not the security log)"),
            "verify": (self.cmd_verify, "auditor: 'verify SEED' (hex): HMAC-SHA256 keyed by SEED over the firmware "
                       "image as stored"),
            "coupons": (self.cmd_coupons, "coupon records kept until the system acknowledges them, and the printer "
                        "('coupons json', 'coupons N'; auditor: 'coupons ack N [M]')"),
            "validation": (self.cmd_validation, "validation id and coupon sequence ('validation json'); "
                           "administrator: 'validation set ID [SEQ]', as a system's SAS 4C"),
            "reprint": (self.cmd_reprint, "attendant: reprint the last coupon issued, marked DUPLICATE"),
            "note": (self.cmd_note, "a note of unknown fate ('note json'); attendant, cash box counted: "
                     "'note stacked' / 'note returned'"),
            "ticket": (self.cmd_ticket, "the last ticket redeemed through the system (SAS 70/71); attendant, cash "
                       "box counted, for one of unknown fate: 'ticket stacked' / 'ticket returned'"),
            "hand": (self.cmd_hand, "video poker: the hand; 'hand deal' / 'hand hold N' / 'hand auto' / 'hand draw'"),
            "table": (self.cmd_table, "table game: the layout; 'table put KEY CREDITS' (0: off) / 'table clear' / "
                      "'table play' / 'table keys [FROM]'; a card table's hand: 'table decide N' / 'table auto'"),
        }

    def service(self):
        peers = getattr(self.uart, "peers", None)
        if peers != self._peer:  # another terminal took the link: it never inherits a session
            self._peer = peers
            self._ask = None
            self._end("link changed")
        take = self._take_overrun
        while True:
            if take is not None:
                lost = take()  # input lost right here, between what was read and what comes next
                if lost:
                    self._bad = _LOST
                    self._lost += lost
                    self._cr = False  # an LF after the loss is no longer the CR's pair
            n = self.uart.readinto(self._buf)
            if not n:
                return
            for i in range(n):
                self._feed(self._buf[i])

    def _feed(self, c):
        if c == 10 and self._cr:
            self._cr = False  # CR LF is one line end
            return
        self._cr = c == 13
        if c in (10, 13):
            self._end_line()
        elif self._bad != _OK:
            return  # the rest of a refused line
        elif c in (8, 127):  # backspace / delete from the technician's terminal
            if self._len:
                self._len -= 1
        elif not 32 <= c < 127:
            self._bad = _BYTE  # line noise or a wrong baud rate: never guess what was meant
            self._badbyte = c
        elif self._len >= MAX_LINE:
            self._bad = _LONG  # cutting it could change an argument ('... 1 30' -> '... 1 3')
        else:
            self._line[self._len] = c
            self._len += 1

    def _end_line(self):
        bad = self._bad
        n = self._len
        self._len = 0
        self._bad = _OK
        if bad == _OK:
            if n:
                self.execute(bytes(self._line[:n]).decode())  # printable ASCII: decode cannot fail
                return  # execute() wrote the prompt
        elif bad == _LONG:
            self.say("error: line longer than %d characters: refused, nothing run" % MAX_LINE)
        elif bad == _BYTE:
            self.say("error: byte 0x%02x is not printable ASCII: line refused, nothing run" % self._badbyte)
        else:
            self.say("error: input lost (%d bytes, receive buffer overrun): line discarded, nothing run; "
                     "send it again" % self._lost)
            self._lost = 0
        self.uart.write(PROMPT)

    def say(self, text):
        if self._said is None:
            self._said = text
        n = len(text)
        if n <= SAY_PIECE:
            self.uart.write(text.encode() + b"\r\n")
            return
        # a long line (a table game's rules: craps-83's are 830 bytes) a piece at a time: its bytes
        # in one block need a piece the heap after a boot check may not have (craps-83's 'paytable
        # fr' found none with 42 KB free at 152K, docs/sas.md "Memory")
        for i in range(0, n, SAY_PIECE):
            self.uart.write(text[i:i + SAY_PIECE].encode())
        self.uart.write(b"\r\n")

    def write_json(self, obj):
        """obj's JSON into the port a piece at a time (board/json_out.py): never the whole text in
        one string, which a heap in pieces may not have room for ('events json' once found none with
        42 KB free)."""
        JsonOut(JSON_PIECE, self.uart.write).send(obj)

    def say_json(self, obj):
        self.write_json(obj)
        self.uart.write(b"\r\n")

    def log(self, code, text, who=None):
        au = self.audit
        if au is None:
            return
        if code in NOISE and (self.user is None or (code in ("refused", "unknown") and au.full())):
            au.noise(code, text, who or "-")  # counted, not journaled: noise never pushes a record out
        else:
            au.record(who or (self.user[0] if self.user else "-"), code, text)

    def _end(self, why):
        if self.user is not None:
            self.log("logout", why)
            self.user = None

    def execute(self, line):
        now = self.cab.board.ticks_ms()
        ask = self._ask
        if ask is not None:
            self._ask = None
            self._said = None
            if not self._run(ask[0], ask[2:] + (line,), ask[1]):  # an answer: never logged, never parsed
                pin = ask[1].startswith(("login", "passwd"))  # 'login ID': the id tried is the who
                self.log("badpin" if pin else "error", "%s: %s" % (ask[1], self._said),
                         ask[1].split()[1] if pin else None)
            self.uart.write(PROMPT)
            return
        if self.user is not None and ticks_diff(now, self._seen) > self.cab.config.SESSION_S * 1000:
            self._end("timed out")
            self.say("session timed out: log in again")
        self._seen = now
        words = line.split()
        entry = self.commands.get(words[0]) if words else None
        if entry is None:
            self.say("unknown command %r: try help" % (words[0] if words else ""))
            self.log("unknown", line)
        else:
            why = self._allowed(words)
            if why:
                self.log("refused", "%s: %s" % (line, why))
                self.say("refused: " + why)
            else:
                self._said = None
                ok = self._run(entry[0], (words[1:],), line)
                if words[0] not in ("help", "login", "logout"):  # login and logout log their own outcome
                    said = self._said
                    self.log("ok" if ok else "error", "%s => %s" % (line, said[:40] if said else "done"))
        for name in self.release:
            _release(name)
        self.uart.write(PROMPT)

    def _run(self, fn, args, line):
        try:
            fn(*args)
            return True
        except MemoryError as e:
            # the heap is shared with play: the command gives way, the cabinet carries on
            import gc

            from firmware.fault_where import where

            gc.collect()
            self.say("error: out of memory for %r%s (%d bytes free); try again" % (
                line.split()[0], where(e), gc.mem_free() if hasattr(gc, "mem_free") else -1))
        except Exception as e:  # a console typo must never stop the cabinet
            self.say("error: %s" % e)
        return False

    def cmd_help(self, args):
        for name in sorted(self.commands):
            self.say("%-9s %s" % (name, self.commands[name][1]))

    def _need_memory(self):
        if self.cab.ram_error:
            raise ValueError("critical memory unusable (%s): RAM clear needed" % self.cab.ram_error)

    def cmd_meters(self, args):
        self._need_memory()
        snap = self.cab.ledger.snapshot()
        if args and args[0] == "json":
            self.say_json(snap)
            return
        from firmware import console_read

        for line in console_read.meters(snap, self.cab.config.DENOM_CENTS):
            self.say(line)

    def cmd_state(self, args):
        c = self.cab
        if c.ram_error:
            self.say("state ramerror: %s" % c.ram_error)
            return
        from firmware import console_read

        for line in console_read.state(c):
            self.say(line)

    def cmd_hardmeters(self, args):
        em = self.cab.em
        if em is None:
            self.say("no electromechanical meters on this board")
            return
        out = {}
        for name in sorted(em.coils):
            out[name] = {"count": em.done(name), "pending": em.pending(name), "ahead": em.mismatch.get(name, 0)}
        if args and args[0] == "json":
            out["busy"] = em.busy()  # a stroke on its way, or pulses still to drive
            self.say_json(out)
            return
        for name in sorted(out):
            o = out[name]
            self.say("%-13s %8d  pending %d%s" % (name, o["count"], o["pending"],
                                                  "  AHEAD %d" % o["ahead"] if o["ahead"] else ""))

    def cmd_mem(self, args):
        import gc

        gc.collect()
        if hasattr(gc, "mem_free"):
            self.say("heap: %d used, %d free" % (gc.mem_alloc(), gc.mem_free()))
        led = self.cab.ledger
        played = led.meters["games_played"] if led.st else 0
        self.say("nvram: %d bytes written since power-up, %d games played in all" % (led.mem.bytes_written, played))

    def cmd_games(self, args):
        for gid, ok, reason, game in self.cab.offered:
            mark = "PLAYING" if game is not None and game is self.cab.game else ("certified" if ok else "DISABLED")
            self.say("%-16s %-9s %s" % (gid, mark, "" if ok else reason))

    def cmd_events(self, args):
        as_json = args and args[0] == "json"
        w = self.uart.write
        if as_json:
            # {"events": [[n, t, code, text], ...], "security": [[n, t, who, code, text], ...]}: the
            # security log survives a RAM error, so it is exported even when the books cannot be
            w(b'{"security": ')
            self._security_json()
            if self.cab.ram_error:
                w(b', "events": null}\r\n')
                return
            w(b', "events": ')
        self._need_memory()
        led = self.cab.ledger
        from firmware import localtime

        if as_json:
            w(b"[")  # streamed a record at a time, as recall json: the whole log never in one string
        first = True
        for name in led.event_chunks():
            for n, t, code, text in led.chunk_events(name):
                if as_json:
                    if not first:
                        w(b", ")
                    self.write_json([n, t, code, text])
                else:
                    self.say("%5d %s %-10s %s" % (n, localtime.stamp(t), code, text))
                first = False
        if as_json:
            w(b"]}\r\n")

    def cmd_recall(self, args):
        self._need_memory()
        led = self.cab.ledger
        if args and args[0] == "json":
            # streamed: the records are already JSON in NVRAM; no big string in a small heap
            w = self.uart.write
            w(('{"machine": %s, "games": [' % json.dumps(self.cab.config.MACHINE_ID)).encode())
            for i, name in enumerate(led.recall_blocks()):
                if i:
                    w(b", ")
                w(led.mem.read(name))
            w(b"]}\r\n")
            return
        from firmware import console_read

        for line in console_read.recall(led, self.cab.game, args[0] if args and args[0] == "fr" else "en"):
            self.say(line)

    def cmd_testgame(self, args):
        from firmware import states

        c = self.cab
        if not c.handle(states.TEST, int(args[0]) if args else None):  # the state table decides
            raise ValueError(c.why_refused(states.TEST))
        o = c.tested
        c.tested = None
        self.say("TEST GAME (meters untouched): window %s win %d" % (json.dumps(o.window), o.award))

    def cmd_tournament(self, args):
        from firmware import tournament

        self._need_memory()
        led = self.cab.ledger
        if args and args[0] in ("start", "end"):
            if not self.cab.audit_mode():
                raise ValueError("turn the audit key first")
            if args[0] == "start":
                if len(args) < 7:
                    raise ValueError("usage: tournament start FEE CREDITS GAMES PCT YYYY-MM-DD HOURS [NAME]")
                led.tour_start(int(args[1]), int(args[2]), int(args[3]), int(args[4]), args[5], int(args[6]),
                               " ".join(args[7:]))
            else:
                for entry, score, prize in led.tour_end():
                    self.say("entry %d, score %d: prize %d credits (hand pay)" % (entry, score, prize))
                return
            self.cab.show()
        t = led.tour
        if not t:
            self.say("no tournament")
            return
        for lang in ("fr", "en"):
            for line in tournament.rules(t, lang):
                self.say(line)
        self.say("entries %d, fees %d, prize pool %d" % (t["entries"], t["fees"], tournament.pool(t)))
        for score, entry in t["scores"]:
            self.say("  entry %d: %d" % (entry, score))

    def cmd_ramclear(self, args):
        """The state table takes it in a RAM error, or with the audit key on and nothing owed
        (firmware/states.py SERVICE); the cabinet logs the clear in both logs, and a refusal is
        logged here with what is owed."""
        from firmware import states

        c = self.cab
        if states.action(c.state, states.RAMCLEAR) is None:  # what the table says comes before the usage
            why = c.why_refused(states.RAMCLEAR)
            self.log("refused", "ramclear: " + why)
            raise ValueError(why)
        if args:
            raise ValueError("usage: ramclear (no PIN: the administrator's session is the authority)")
        led = c.ledger
        n = led.clears
        try:
            c.handle(states.RAMCLEAR, self.user[0])
        except Exception as e:  # the answer says what happened: cleared (then this failed), or not
            if led.clears == n:
                raise
            self.say("critical memory cleared; meters start at zero (then: %s)" % e)
        else:
            self.say("critical memory cleared; meters start at zero")
        if led.unlogged_clear():  # its security record could not be written now (out of memory)
            self.say("the security log records it at the next power-up")

    def cmd_verify(self, args):
        from firmware import image_hmac

        if len(args) != 1:
            raise ValueError("usage: verify SEED (2 to 64 hex digits)")
        digest, n = image_hmac.mac(self.cab.board, image_hmac.parse_seed(args[0]))
        text = "".join("%02x" % b for b in digest)
        self.say("hmac-sha256 %s over %d bytes of the firmware image" % (text, n))
        if self.cab.ledger.st is not None:
            self.cab.ledger.event("verify", "seed %s: %s" % (args[0][:16], text[:16]))

    # a coupon cabinet's commands (firmware/console_coupons.py), imported when first run
    def cmd_coupons(self, args):
        if self.cab.coupons is None:  # a casino cabinet: said without loading the coupon commands
            self.say("no coupon memory (jurisdiction %s)" % self.cab.config.JURISDICTION)
            return
        from firmware import console_coupons

        console_coupons.coupons(self, args)

    def cmd_validation(self, args):
        from firmware import console_coupons

        console_coupons.validation(self, args)

    def cmd_reprint(self, args):
        from firmware import console_coupons

        console_coupons.reprint(self, args)

    def cmd_note(self, args):
        """The note whose fate the firmware could not prove (firmware/bill_in.py), and the attendant's
        settlement of it through the state table (states.NOTE): logged here and in the event log."""
        from firmware import states

        self._need_memory()
        c = self.cab
        led = c.ledger
        u = led.bill_unknown
        if args and args[0] in ("stacked", "returned") and len(args) == 1:
            if u is None:
                raise ValueError("no note of unknown fate to settle")
            if not c.handle(states.NOTE, args[0] == "stacked", self.user[0]):
                raise ValueError("note %s refused in state %s" % (args[0], c.state))
            self.say("%s (%d credits) settled as %s: %s" % (u["id"], u["k"], args[0], "credited" if args[0] == "stacked"
                                                               else "nothing credited"))
            return
        if args and args != ["json"]:
            raise ValueError("usage: note [json | stacked | returned]")
        m = led.meters
        if args:
            self.say_json({"note": u, "unproven": m["bill_unproven"], "credits": m["bill_unproven_credits"],
                           "stacked": m["bill_settled_stacked"], "returned": m["bill_settled_returned"]})
            return
        if u is None:
            self.say("no note of unknown fate")
        else:
            from firmware.coupon import stamp  # the vlt's clock format (notes are taken under vlt only)

            self.say("note %s, %d credits, fate unknown since %s: %s" % (u["id"], u["k"], stamp(u["s"]), u["why"]))
            self.say("count the cash box, then 'note stacked' or 'note returned'")
        self.say("unknown notes %d (%d credits): settled stacked %d, returned %d credits" % (
            m["bill_unproven"], m["bill_unproven_credits"], m["bill_settled_stacked"], m["bill_settled_returned"]))

    def cmd_ticket(self, args):
        """The ticket redeemed last (firmware/ticket_books.py), and the attendant's settlement of one
        of unknown fate through the state table (states.NOTE, as a note's): logged in the event log."""
        from firmware import states
        from firmware import ticket_books as tk

        self._need_memory()
        c = self.cab
        led = c.ledger
        if args and args[0] in ("stacked", "returned") and len(args) == 1:
            if tk.stage(led) != tk.UNKNOWN:
                raise ValueError("no ticket of unknown fate to settle")
            if not c.handle(states.NOTE, args[0] == "stacked", self.user[0], True):  # the validator's, a ticket
                raise ValueError("ticket %s refused in state %s" % (args[0], c.state))
            self.say("ticket %s settled as %s: %s" % (tk.digits(led), args[0], "credited" if args[0] == "stacked"
                                                     else "nothing credited"))
            return
        if args:
            raise ValueError("usage: ticket [stacked | returned]")
        stage = tk.stage(led)
        self.say("ticket %s: stage %d, status %02X, %d cents (%d credits)%s" % (
            tk.digits(led), stage, tk.status(led), tk.cents(led), tk.credits(led),
            ": fate unknown, count the cash box, then 'ticket stacked' or 'ticket returned'" if stage == tk.UNKNOWN
            else ""))
        self.say("tickets in %d: %d credits" % (tk.count_in(led), tk.credits_in(led)))

    def cmd_paytable(self, args):
        lang = args[0] if args else "en"
        for line in self.cab.paytable(lang):
            self.say(line)
        p = self.cab.progressive
        if p is not None and self.cab.ledger.st is not None:
            from firmware import console_read

            self.say(console_read.progressive(self.cab.game, p, self.cab.ledger.st, lang, self.cab.config.DENOM_CENTS))

    def cmd_version(self, args):
        import sys

        self.say("Jeton %s on board %s, machine %s, runtime %s %s" % (
            self.cab.config.VERSION, self.cab.board.NAME, self.cab.config.MACHINE_ID, sys.implementation.name,
            ".".join(str(v) for v in sys.implementation.version[:3])))

    def cmd_table(self, args):
        """A table game's layout from the console (a test bench's): each word goes through the state
        table as the touch screen's would, and is refused where the table refuses it."""
        from firmware import states

        c = self.cab
        cards = hasattr(c.game, "givable")  # games/cardtable.py CardTable: firmware/play_cards.py
        if not hasattr(c.game, "play_round") and not cards:  # games/table_game.py TableGame
            raise ValueError("the game played is not a table game")
        word = args[0] if args else ""
        if cards and word == "keys":
            self.say(" ".join("%d=%s" % (i, w) for i, w in enumerate(c.game.m.stakes)))
            return
        if word == "keys":  # the layout's keys by index (a touch names one by it), a wager's a line, 48 at most
            start = int(args[1]) if len(args) == 2 and args[1].isdigit() else 0
            i = 0
            for wid in c.game.m.ids:  # one wager's selections at a time: never the whole layout in a small heap
                sel = c.game.selections(wid)
                shown = [(i + j, sel[j]) for j in range(len(sel)) if start <= i + j < start + 48]
                if shown:
                    self.say(" ".join("%d=%s" % x for x in shown))
                i += len(sel)
            return
        if word == "put" and len(args) == 3 and args[2].isdigit():
            ok = c.handle(states.WAGER, args[1], int(args[2]))
        elif word == "clear" and len(args) == 1:
            ok = c.handle(states.CLEAR)
        elif word == "play" and len(args) == 1:
            ok = c.handle(states.PLAY)
        elif cards and word == "decide" and len(args) == 2 and args[1].isdigit():
            ok = c.handle(states.HOLD_KEY, int(args[1]))  # hold key N: decision N-1
        elif cards and word == "auto" and len(args) == 1:
            ok = c.handle(states.AUTO)
        elif not args:
            ok = True
        else:
            raise ValueError("usage: table [put KEY CREDITS | clear | play | keys [FROM]%s]" % (
                " | decide N | auto" if cards else ""))
        if not ok:
            raise ValueError("%s refused in state %s" % (" ".join(args), c.state))
        msg = c.screen.message
        if isinstance(msg, str):
            raise ValueError(msg)  # the layout's refusal, as the screen says it
        if msg:
            raise ValueError(" ".join(str(a) for a in msg))
        t = c.gameplay.table_screen()
        stake = t["stake"]
        self.say("stake %s takes %d" % (" ".join("%s=%d" % (k, stake[k]) for k in sorted(stake)) or "-", t["takes"]))
        if t["table"]:
            self.say("standing %s" % json.dumps(t["table"]))
        played = c.screen.played
        if cards and word in ("play", "decide", "auto"):
            self.say("cards %s %s" % (" ".join(c.screen.reels[0]) if c.screen.reels else "-", "decide " + ", ".join(
                t["decide"]) if t["decide"] else "win %d" % c.screen.win))
        elif word == "play" and played:
            self.say("drawn %s win %d" % (json.dumps(c.screen.reels["table"]), c.screen.win))

    def cmd_hand(self, args):
        """The player's hand keys from the console (a test bench's): each goes through the state
        table as the touch screen's would, and is refused where the table refuses it."""
        from firmware import states
        from firmware.play import is_poker

        c = self.cab
        if args:
            word = args[0]
            if not is_poker(c.game):
                raise ValueError("the game played is not video poker")
            if word == "hold" and len(args) == 2 and args[1].isdigit() and 1 <= int(args[1]) <= 5:
                ok = c.handle(states.HOLD_KEY, int(args[1]))
            elif word == "auto" and len(args) == 1:
                ok = c.handle(states.AUTO)
            elif word == "deal" and len(args) == 1:
                ok = c.handle(states.DEAL)
            elif word == "draw" and len(args) == 1:
                ok = c.handle(states.DRAW)
            else:
                raise ValueError("usage: hand [deal | hold N (1-5) | auto | draw]")
            if not ok:
                raise ValueError("%s refused in state %s" % (" ".join(args), c.state))
        h = c.gameplay.hand_screen()
        if h is None:
            self.say("no hand")
            return
        self.say("hand %s held %s%s" % (" ".join(c.screen.reels[0]), "".join(str(b) for b in h["held"]),
                                        " waiting for the draw" if h["open"] else " win %d" % c.screen.win))
