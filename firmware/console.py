# Maintenance console on a UART: line commands from a technician's terminal, replies then a prompt.
import json

PROMPT = b"jeton> "
MAX_LINE = 80


class Console:
    def __init__(self, uart, cabinet):
        self.uart = uart
        self.cab = cabinet
        self._line = bytearray()
        self._buf = bytearray(64)
        self.commands = {
            "help": (self.cmd_help, "this list"),
            "meters": (self.cmd_meters, "soft meters in credits ('meters json' for machines)"),
            "state": (self.cmd_state, "cabinet state, credits, bet, last game"),
            "paytable": (self.cmd_paytable, "game rules and prizes ('paytable en' / 'paytable fr')"),
            "version": (self.cmd_version, "firmware version and board"),
        }

    def service(self):
        while True:
            n = self.uart.readinto(self._buf)
            if not n:
                return
            for i in range(n):
                c = self._buf[i]
                if c in (10, 13):
                    if self._line:
                        self.execute(bytes(self._line).decode())
                        self._line = bytearray()
                elif len(self._line) < MAX_LINE:
                    self._line.append(c)

    def say(self, text):
        self.uart.write(text.encode() + b"\r\n")

    def execute(self, line):
        words = line.split()
        entry = self.commands.get(words[0]) if words else None
        if entry is None:
            self.say("unknown command %r: try help" % (words[0] if words else ""))
        else:
            try:
                entry[0](words[1:])
            except Exception as e:  # a console typo must never stop the cabinet
                self.say("error: %s" % e)
        self.uart.write(PROMPT)

    def cmd_help(self, args):
        for name in sorted(self.commands):
            self.say("%-9s %s" % (name, self.commands[name][1]))

    def cmd_meters(self, args):
        snap = self.cab.ledger.snapshot()
        if args and args[0] == "json":
            self.say(json.dumps(snap))
            return
        for name in sorted(snap):
            self.say("%-13s %10d" % (name, snap[name]))

    def cmd_state(self, args):
        c = self.cab
        self.say("state %s  credits %d  bet %d" % (c.state, c.ledger.credits, c.ledger.bet))
        if c.tilt:
            self.say("tilt: %s" % c.tilt)
        g = c.ledger.game
        if g:
            self.say("last game: %s" % json.dumps(g))

    def cmd_paytable(self, args):
        lang = args[0] if args else "en"
        for line in self.cab.paytable(lang):
            self.say(line)

    def cmd_version(self, args):
        from firmware import config

        import sys

        self.say("Jeton %s on board %s, machine %s, runtime %s %s" % (
            config.VERSION, self.cab.board.NAME, config.MACHINE_ID, sys.implementation.name,
            ".".join(str(v) for v in sys.implementation.version[:3])))
