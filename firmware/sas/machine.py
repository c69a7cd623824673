# The machine's side of SAS: the link (board/sas_link.py) on the board's "sas" UART, the exception
# queue in the books (firmware/sas/exceptions.py) and the long polls (firmware/sas/polls.py). The
# cabinet gives it a read-only view (its ledger, game, ram_error, doors) and one door in: handle()
# of the state table for 01/02. Its own state: the link up or down, shown on the display frame
# ("link") and, where the jurisdiction requires the central system (profile "link_required"),
# a "link" tilt while it is down: no play without the system (L-6, r. 3, s. 2).
from board.sas_link import SasLink
from firmware import jurisdiction
from firmware.sas import exceptions, polls


def open_link(board, cab, log=print):
    """The SAS port when the board has a "sas" UART and the books can be trusted, else None."""
    try:
        uart = board.uart("sas")
    except (ValueError, KeyError, NotImplementedError):
        return None  # a board without the port has no link
    if cab.ledger.st is None or cab.ledger.exceptions is None:
        return None
    m = SasMachine(cab, uart, cab.config.SAS_ADDRESS, board.ticks_ms, getattr(board, "SAS_GAP_MS", None),
                   getattr(board, "SAS_NINE_BIT", False))
    log("sas: address %d on the %s UART" % (cab.config.SAS_ADDRESS, "9-bit" if m.link.nine_bit else "8-bit, framed by time"))
    return m


def attach_queue(ledger):
    """The exception queue, loaded from the books' "sas" block (before power_up raises 17)."""
    ledger.exceptions = exceptions.ExceptionQueue(ledger.mem.read("sas"))


class SasMachine:
    def __init__(self, cab, uart, address, clock, gap_ms=None, nine_bit=False):
        self.cab = cab
        self.ledger = cab.ledger
        self.queue = cab.ledger.exceptions
        kw = {"nine_bit": nine_bit}
        if gap_ms is not None:
            kw["gap_ms"] = gap_ms
        self.link = SasLink(uart, address, clock, self, **kw)
        played = self.ledger.meters["games_played"]
        self.played_at_boot = played
        self.played_at_door = played  # no closure seen since power-up: counted from it
        self._door_open = cab.switches.is_open("door_main")
        self._base = None
        self.required = bool(jurisdiction.PROFILES.get(cab.config.JURISDICTION, {}).get("link_required"))
        if self.required:
            cab.set_tilt("link", "no poll from the central system yet")

    # --- what the link asks ---------------------------------------------------------------------------
    def spec(self, cmd):
        return polls.TABLE.get(cmd)

    def long_poll(self, cmd, rx, k, out):
        return polls.TABLE[cmd][2](self, rx, k, out)

    def general_poll(self):
        if self.cab.ram_error:
            return exceptions.NONE
        return self.queue.take()  # its removal is committed once the reply is on the wire (service)

    def link_changed(self, up):
        self.ledger.event("sas", "link up" if up else "link down: no poll for 5 s")
        if self.required:
            if up:
                self.cab.clear_boot_tilt("link")
            else:
                self.cab.set_tilt("link", "no poll from the central system for 5 s")
        self.cab.show()

    # --- the cabinet's loop -----------------------------------------------------------------------------
    def service(self):
        self.link.service()
        q = self.queue
        if q.dirty and not self.cab.ram_error:
            self.ledger.mem.commit({"sas": q.block()})  # what was reported leaves the queue
            q.dirty = False
        door = self.cab.switches.is_open("door_main")
        if self._door_open and not door:
            self.played_at_door = self.ledger.meters["games_played"]
        self._door_open = door

    def base_percent(self):
        """The certified return at the largest bet, as 4 ASCII digits (94.12 % -> "9412")."""
        if self._base is None:
            self._base = "0000"
            game = self.cab.game
            try:
                import json

                with open("%s/%s.json" % (self.cab.config.CERTS_DIR, game.id)) as f:
                    p, q = json.load(f)["rtp"][str(max(game.bets))].split("/")
                self._base = "%04d" % (int(p) * 10000 // int(q))
            except (OSError, ValueError, KeyError, AttributeError, TypeError):
                pass  # no game or no certificate to read: 0000
        return self._base
