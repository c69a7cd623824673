# The machine's side of SAS: the link (board/sas_link.py) on the board's "sas" UART, the exception
# queue in the books (firmware/sas/exceptions.py) and the long polls (firmware/sas/polls.py). The
# cabinet gives it a read-only view (its ledger, game, coupons, ram_error, doors, state) and its
# doors in: handle() of the state table (01/02, 94's key), set_tilt / clear_boot_tilt (the orders'
# tilts), and reads back notes_off() (Cabinet.want_notes). Its own state: the link up or down,
# shown on the display frame ("link") and, where the jurisdiction requires the central system
# (profile "link_required"), a "link" tilt while it is down: no play without the system (L-6,
# r. 3, s. 2).
from board.sas_link import SasLink
from firmware import jurisdiction
from firmware.sas import exceptions, polls

SYSTEM_VALIDATION = 0x57  # exception 57, system validation request (SAS 6.02 Table A-1, s. 15.7)


def open_link(board, cab, log=print, base=None):
    """The SAS port when the board has a "sas" UART, else None. In a RAM error too: silent until
    the RAM clear (SasMachine.service), then the system hears the clear's 3A. base: the game's
    base percent (certified_base), read at power-up; None: at the first 1F."""
    try:
        uart = board.uart("sas")
    except (ValueError, KeyError, NotImplementedError):
        return None  # a board without the port has no link
    if cab.ledger.exceptions is None:
        return None
    m = SasMachine(cab, uart, cab.config.SAS_ADDRESS, board.ticks_ms, getattr(board, "SAS_GAP_MS", None),
                   getattr(board, "SAS_NINE_BIT", False))
    m._base = base
    log("sas: address %d on the %s UART" % (cab.config.SAS_ADDRESS, "9-bit" if m.link.nine_bit else "8-bit, framed by time"))
    return m


class SasMachine:
    def __init__(self, cab, uart, address, clock, gap_ms=None, nine_bit=False):
        self.cab = cab
        self.ledger = cab.ledger
        self.queue = cab.ledger.exceptions
        self.queue.cents = cab.config.DENOM_CENTS  # what a stacked note's credits are worth (47-50)
        kw = {"nine_bit": nine_bit}
        if gap_ms is not None:
            kw["gap_ms"] = gap_ms
        self.link = SasLink(uart, address, clock, self, **kw)
        self.signature = None  # long poll 21's RomSignature, from the first 21 on
        self._spec = [0, 0]  # what spec() tells the link: type, data length (no tuple per poll)
        played = self.ledger.meters["games_played"] if self.ledger.st is not None else 0  # RAM error: cleared to 0
        self.played_at_boot = played
        self.played_at_door = played  # no closure seen since power-up: counted from it
        self._door_open = cab.switches.is_open("door_main")
        self._base = None
        self.required = bool(jurisdiction.PROFILES.get(cab.config.JURISDICTION, {}).get("link_required"))
        if self.required:
            cab.set_tilt("link", "no poll from the central system yet")
        # the system's orders kept across the power cut (firmware/sas/control.py)
        if self.queue.flags & exceptions.MAINTENANCE:
            cab.set_tilt("maintenance", "maintenance mode, by the central system")
        if self.queue.flags & exceptions.GAME_OFF:
            cab.set_tilt("sas-game", "game 1 disabled by the central system")
        self.linked = None  # firmware/sas/progressive.py Linked: a progressive linked through SAS
        if getattr(cab.config, "PROGRESSIVE_LINK", None):
            from firmware.sas import progressive

            self.linked = progressive.start(self, clock())

    # --- what the link asks ---------------------------------------------------------------------------
    def spec(self, cmd):
        i = polls.find(cmd)
        if i < 0:
            return None
        self._spec[0] = polls.TABLE[i + 1]  # type, | 4: also a broadcast from address 0
        self._spec[1] = polls.TABLE[i + 2]
        return self._spec

    def long_poll(self, cmd, rx, k, out):
        return polls.answer(self, polls.find(cmd), rx, k, out)

    def general_poll(self, out=None):
        sig = self.signature
        if sig is not None and sig.owed and out is not None:
            from firmware.sas.rom_signature import reply

            sig.owed = False
            return 0x100 | reply(sig, out)  # the ROM signature the system asked for (21): now done
        if self.cab.ram_error:
            return exceptions.NONE
        due = getattr(self.cab.money_out, "sv_due", None)
        if due is not None and due(self.link.clock()):
            return SYSTEM_VALIDATION  # a priority exception, before the queue (firmware/coupon_out.py)
        return self.queue.take()  # its removal is committed once the reply is on the wire (service)

    def notes_off(self):
        """The system disabled the bill acceptor (07; 06 enables it): firmware/cabinet.py want_notes."""
        return bool(self.queue.flags & exceptions.NOTES_OFF)

    def link_changed(self, up):
        if self.ledger.st is not None and not self.cab.ram_error:  # a memory in doubt records nothing
            self.ledger.event("sas", "link up" if up else "link down: no poll for 5 s")
        if self.required:
            if up:
                self.cab.clear_boot_tilt("link")
            else:
                self.cab.set_tilt("link", "no poll from the central system for 5 s")
        self.cab.show()

    # --- the cabinet's loop -----------------------------------------------------------------------------
    def service(self):
        if self.cab.ram_error:
            self.link.silent()  # SAS 6.02 s. 2.1: critical memory lost, address 0 until the RAM clear
            return
        # an order's commit (01, 02, 94...) answered once its journal is on record, its commit point:
        # the copies are written after the reply (SAS 6.02 s. 2.3.2: the reply within 20 ms)
        mem = self.ledger.mem
        mem.defer = True
        try:
            self.link.service()
        finally:
            mem.defer = False
        mem.settle()
        if self.signature is not None:
            self.signature.step(self.link.clock)  # pieces of the image, if 21 asked: play goes on
        if self.linked is not None:
            from firmware.sas.progressive import watch

            watch(self, self.link.clock())  # 5 s without the system's levels: 53 and no play
        q = self.queue
        if q.dirty and not self.cab.ram_error:
            self.ledger.mem.commit({"sas": q.block()})  # what was reported leaves the queue
            q.dirty = False
        door = self.cab.switches.is_open("door_main")
        if self._door_open and not door and self.ledger.st is not None:
            self.played_at_door = self.ledger.meters["games_played"]
        self._door_open = door

    def base_percent(self):
        """The certified return at the largest bet, as 4 ASCII digits (94.12 % -> "9412")."""
        if self._base is None:
            self._base = certified_base(self.cab.config.CERTS_DIR, self.cab.game)
        return self._base


def certified_base(certs_dir, game):
    """SAS 1F's base percent: the certified return at the game's largest bet, 4 ASCII digits (94.12 %
    -> "9412"); "0000" without a game or a certificate to read. The boot reads it (open_link's base)
    right after the games' boot check, in a heap just collected: at the first 1F the certificate's
    text, its returns' long fractions, came into a heap a session had cut up (aurore-85 at 112K:
    630 bytes not found, a restart)."""
    try:
        import json

        with open("%s/%s.json" % (certs_dir, game.id)) as f:
            p, q = json.load(f)["rtp"][str(max(game.bets))].split("/")
        return "%04d" % (int(p) * 10000 // int(q))
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return "0000"  # no game or no certificate to read
