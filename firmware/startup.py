# Power-up: critical memory, RNG, game, drivers; then hand over to the cabinet's main loop.
import binascii
import gc
import hashlib
import json
import sys

from board.cctalk import Master
from firmware import jurisdiction
from firmware.accounts import LOST, Accounts
from firmware.audit import Audit, open_security
from firmware.cabinet import Cabinet, open_rng
from firmware.critmem import RamError
from firmware.ledger import Ledger, open_memory
from firmware.progressive import Progressive, ProgressiveError
from games.certificate import NO_MEMORY, check


def log(msg):
    print("jeton: " + msg)


# bench_heap's census of the heap by subsystem (its boot line sets it): each stage of boot() then
# prints the heap in use after a collection, and the last the modules loaded. None on a cabinet;
# this module is given back once booted (main.BOOT_ONLY), so it costs nothing after the boot
TRACE = None


def _mark(what, modules=None):
    if TRACE:
        gc.collect()
        print("jeton: heap %s %d" % (what, gc.mem_alloc()))
        if modules:
            print("jeton: heap modules " + " ".join(modules))


def _module_file():
    return getattr(sys.modules.get("firmware.cabinet"), "__file__", "")


def _code_form():
    # how the firmware's modules were loaded: "mpy" (compiled image), "py" (compiled at boot), "frozen".
    # A frozen module is named by its path in the image ("firmware/cabinet.py"), as is one found
    # through '' (the working directory): the first of the two on sys.path gave it.
    f = _module_file()
    if not f:
        return "frozen"
    if f == "firmware/cabinet.py":
        for entry in sys.path:
            if entry == ".frozen":
                return "frozen"
            if entry == "":
                break
    return f.rpartition(".")[2]


def _image_id():
    # the firmware image's identity: SHA-256 of the running binary (the emulated board's image file)
    path = getattr(sys, "executable", "")
    if not path or sys.implementation.name != "micropython":
        return None  # a board: the image is in flash, not a file; CPython: no image at all
    h = hashlib.sha256()
    # small: the ready line's, the boot's last piece, when boot() still holds everything (a 512-byte
    # buffer was where a vlt cabinet's boot ran out at 114K; 128 bytes reads 1.2 MB in ~20 ms)
    buf = bytearray(128)
    try:
        with open(path, "rb") as f:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                h.update(buf if n == len(buf) else memoryview(buf)[:n])
    except OSError:
        return None
    return binascii.hexlify(h.digest()).decode()


def _heap_size():
    if hasattr(gc, "mem_free"):  # MicroPython: the fixed heap given by -X heapsize
        return gc.mem_free() + gc.mem_alloc()
    return None


class _Store:
    """load()/save() for a driver's persisted record, backed by the ledger's critical memory."""

    def __init__(self, load, save):
        self.load = load
        self.save = save


def _has_uart(board, role):
    try:
        board.uart(role)
    except (ValueError, KeyError, NotImplementedError):
        return False
    return True


# the card-poker table games firmware/play_cards.py plays (tests/device/test_firmware_cards_play.py)
CARDS_PLAYED = ("jeton-three-card/1", "jeton-caribbean/1", "jeton-let-it-ride/1", "jeton-red-dog/1", "jeton-war/1",
                "jeton-three-five-seven/1", "jeton-boston/1", "jeton-crazy-four/1")


def playable(game):
    """True for a game the cabinet has a play flow for: reels, keno (firmware/play_keno.py), video
    poker (firmware/play_poker.py is_poker), the table games without decisions (roulette, craps,
    sic bo, the wheel, baccarat: firmware/play_table.py) and the card-poker table games whose
    decisions it plays (firmware/play_cards.py: CARDS_PLAYED, all eight); blackjack is certified
    but not offered until the cabinet plays it (issue 26)."""
    return getattr(game, "kind", None) in ("reels", "keno") or hasattr(game, "check_deck") or \
        hasattr(game, "play_round") or getattr(game, "FORMAT", None) in CARDS_PLAYED


def load_games(ids, models_dir, certs_dir, ledger, cfg, log):
    """Boot check of every offered game (s. 93) under the configuration cfg's jurisdiction and
    credit value: (id, ok, reason, game) each; failures are disabled."""
    out = []
    for gid in ids:
        ok, reason, game = check("%s/%s.json" % (models_dir, gid), "%s/%s.json" % (certs_dir, gid))
        if ok:  # the profile's limits, again at boot (firmware/jurisdiction.py): the most one game pays
            # a blackjack or card-table round can put more than its bet at risk (doubles, splits,
            # raises): the certificate's max_risk per level is what the maximum bet holds
            broken = jurisdiction.check_game(cfg.JURISDICTION, cfg.DENOM_CENTS, game.bets,
                                             game.max_award, game.m.progressive, getattr(game, "max_risk", None))
            kind = jurisdiction.check_kind(cfg.JURISDICTION, getattr(game, "kind", None))  # issue 26: vlt, cards
            if kind:
                broken.append(kind)
            if not playable(game):
                broken.append("table game: this cabinet has no play flow for it yet (issue 26)")
            if broken:
                ok, reason = False, "; ".join(broken)
        log("game %s: %s" % (gid, "certified" if ok else "DISABLED: " + reason))
        if not ok and ledger.st is not None:
            ledger.event("game-off", "%s: %s" % (gid, reason))
        out.append((gid, ok, reason, game if ok else None))
    return out


def open_progressive(game, certs_dir, ledger, cfg, log):
    """The progressive the game's certified model declares, or None (s. 91-92 checks at boot)."""
    spec = game.m.progressive if game is not None else None
    if not spec:
        return None
    try:
        with open("%s/%s.json" % (certs_dir, game.id)) as f:
            math_hash = json.load(f)["math_hash"]
        # where only a coupon pays (vlt: L-6, r. 3, s. 7) a hit is credited like any win, no hand pay
        prog = Progressive(spec, math_hash, cfg.PROGRESSIVE_LINK, not jurisdiction.pays_by_coupon(cfg.JURISDICTION))
    except (ProgressiveError, OSError, ValueError, KeyError) as e:
        log("progressive DISABLED: %s" % e)
        if ledger.st is not None:
            ledger.event("prog-off", str(e))
        return None
    log("progressive on %s at bet %d: %d credits" % (prog.pay, prog.bet, prog.amount(ledger.st or {})))
    return prog


def authenticate_software(board, ledger, audit, log, games, models_dir, certs_dir):
    """(None, what the ready line says) when the release is authentic, its number recorded; else
    (the software tilt's reason, naming the file, "refused"). The files checked are those the
    configuration asks for, even one refused: a configured file gone is the software's fault too."""
    from firmware import authenticate

    key = authenticate.builtin_key()
    if key is None:
        log("software: NOT VERIFIED (no release key: code from source, not a firmware image or a signed .mpy image)")
        return None, "unverified"
    # the highest number that ran: the board's release floor, apart from the NVRAM part (a wiped
    # part loses the other two), and a copy in each critical memory (a RAM clear erases the ledger's,
    # a lost security memory its own)
    books = ledger.st.get("rel", 0) if ledger.st is not None else None
    kept = audit.release() if audit is not None else None
    floor = board.floor("release")
    known = [n for n in (books, kept, floor.read()) if n is not None]
    last = max(known) if known else None
    # code from .mpy files (make deploy, JETON_CODE=mpy): their folder holds the key and the manifest
    code_dir = _module_file()[:-len("firmware/cabinet.mpy")] if _code_form() == "mpy" else None
    try:
        version, counter = authenticate.check(board, key, games, models_dir, certs_dir, last, code_dir)
    except authenticate.SoftwareError as e:
        return str(e), "refused"
    status = "release %s (number %d) authentic%s" % (version, counter, ", development key" if key[2] else "")
    log("software: " + status)
    text = "release %s (number %d) runs" % (version, counter)
    if last is None or counter > last or floor.read() is None:
        floor.write(counter)  # first, on the board: the copies in NVRAM may be lost with the part
    if books is not None and counter > books:  # recorded with its event in one commit
        ledger.st["rel"] = counter
        if books:
            ledger.exception("release")  # SAS 36: another release than the one before it
        ledger.event("release", text)
    if kept is not None and counter > kept:
        audit.record_release(counter, text)
    return None, status


def open_audit(board, ledger):
    """The security memory's audit trail, None when the part cannot hold it (the console then
    stays closed). An unrecoverable security memory is started afresh with a first record that
    says why, and the books record the loss too."""
    try:
        audit = Audit(open_security(board.nvram, board.machine_secret(), board.rollback_counter("security"),
                                    ledger.mem), board.ticks_ms)
    except RamError as e:
        log("security memory: %s: the console is closed" % e)
        return None
    try:
        for finding in audit.open():
            log("security memory: " + finding)
            audit.record("-", "nvram", finding)
    except (RamError, ValueError, KeyError) as e:
        log("security memory LOST: %s" % e)
        audit.reset(str(e), LOST)
        if ledger.st is not None:
            ledger.event("nvram", "security memory lost: %s" % e)
    audit.record("-", "power", "power up")
    log_unlogged_clear(audit, ledger)
    return audit


def log_unlogged_clear(audit, ledger):
    """A RAM clear whose security record a power cut prevented (the books cleared first): recorded
    now, once, so the security log tells of every clear the books show. A record already there (the
    cut fell after it) is not written twice."""
    cleared = ledger.unlogged_clear()
    if not cleared:
        return
    who, why, t = cleared
    there = False
    for name in audit.chunks():  # one chunk in the heap at a time
        for r in audit.chunk_records(name):
            if r[3] == "ramclear" and r[2] == who and r[1] >= t and why.startswith(r[4]):
                there = True
    if there or audit.record(who, "ramclear", why + " (logged at power-up)"):
        ledger.logged()  # else no room (firmware/audit.py): the books keep asking at each power-up


def open_accounts(board, cab, ledger, audit, cfg):
    """The technician accounts, kept with the audit trail; None without a security memory."""
    if audit is None:
        return None

    def random(n):
        gen = cab.gameplay.gen  # the generator in use now (a cleared rng tilt gives a fresh one)
        if gen is None:
            # the RNG is in tilt, and the technician who must look at it needs an account: a salt
            # that is still unique to this machine, this moment and this record (not secret)
            h = hashlib.sha256(("%s/%d/%d/%d" % (cfg.MACHINE_ID, ledger.meters["power_resets"] if ledger.st
                                                 else 0, board.ticks_ms(), audit.n)).encode())
            audit.record("-", "salt", "rng tilt: salt from machine id, power-ups, clock")
            return h.digest()[:n]
        buf = bytearray(n)
        gen.readinto(buf)
        return buf

    try:
        accounts = Accounts(lambda: audit.mem.read("acct"), lambda raw: audit.mem.commit({"acct": raw}), random,
                            board.ticks_ms, cfg.PIN_TRIES, cfg.PIN_LOCK_S)
    except (ValueError, KeyError, TypeError) as e:  # unreadable accounts: as a lost memory
        log("security memory LOST: accounts: %s" % e)
        audit.reset("accounts unreadable: %s" % e, LOST)
        accounts = Accounts(lambda: LOST, lambda raw: audit.mem.commit({"acct": raw}), random,
                            board.ticks_ms, cfg.PIN_TRIES, cfg.PIN_LOCK_S)
    return accounts


def open_meters(board, ledger, cfg, log):
    """The electromechanical meters on the coils the board has, or None: a board without meter
    coils keeps soft meters only."""
    names = board.meter_names()
    if not names:
        return None
    coils = {}
    for name in names:
        coils[name] = board.meter(name)
    from board.meters_em import EmMeters

    em = EmMeters(coils, _Store(ledger.em_state, ledger.save_em_state), cfg.EM_ON_MS, cfg.EM_OFF_MS,
                  clock=board.ticks_ms)
    for name in em.recovered:
        log("meter %s: stroke cut by the power loss, driven again" % name)
    return em


def open_money_out(board, bus, ledger, cfg, audit, screen, found, log):
    """Money out as the jurisdiction's profile says: by coupon only on a coupon cabinet
    (open_coupon_out), else by hopper (address 3 on the ccTalk bus, when the configuration has one
    and the books can be trusted) or by hand. found: (kind, why) of each fault found on the way,
    the cabinet's tilts once it is made."""
    try:
        profile = jurisdiction.profile(cfg.JURISDICTION)
    except ValueError as e:
        found.append(("config", str(e)))
        profile = None
    if profile is not None and jurisdiction.pays_by_coupon(cfg.JURISDICTION):
        return open_coupon_out(board, ledger, cfg, profile, audit, screen, found, log)
    from firmware.hopper_out import HopperOut

    # a VLT pays by coupon only (S-13.1, r. 7, s. 4): a hopper wired on its board is never driven
    hopper = None
    if ledger.st is not None and cfg.HOPPER:
        from board.hopper_cctalk import Hopper

        hopper = Hopper(bus, _Store(ledger.hopper_record, ledger.save_hopper_record), log=log)
    return HopperOut(hopper, ledger, cfg, screen, board.ticks_ms, log)


def open_coupon_out(board, ledger, cfg, profile, audit, screen, found, log, printer=None):
    """A coupon jurisdiction (vlt) pays by coupon only: its printer (board/printer_epic.py, on the
    board's "printer" UART unless one is given) and its coupon memory (firmware/coupon_system.py),
    opened even when the books are in a RAM error (after the administrator's RAM clear the cabinet pays
    by coupon again, and a coupon owed before it still prints). found: as open_money_out's."""
    from firmware import coupon_system
    from firmware.coupon_out import CouponOut

    store = coupon_system.open_coupons(board, ledger, audit, found, log)
    from board.printer_epic import Printer

    if printer is None:
        try:
            printer = Printer(board.uart("printer"), board.idle)
        except (KeyError, ValueError, NotImplementedError) as e:
            found.append(("config", "coupon printer: %s" % e))
            return CouponOut(None, store, ledger, cfg, profile, screen, board.ticks_ms, log)
    from board.printer_epic import FAULTS, OFFLINE, describe

    out = CouponOut(printer, store, ledger, cfg, profile, screen, board.ticks_ms, log)
    f = printer.begin()  # ESC @: a ticket half sent before a cut is forgotten; an owed coupon prints again
    if f & OFFLINE:  # a printer powered up with the cabinet may still be starting: it gets a moment,
        out.silent_at_boot()  # then its silence is a tilt (not only at the first coupon)
    elif f & FAULTS:  # its fault is found again at power-up
        found.append(("printer", describe(f)))
    coupon_system.reconcile(store, ledger, log)  # the books and the coupon memory agree on the latest coupon
    return out


def configure(games=None, models_dir=None, certs_dir=None, settings_path=None, juris=None, operator_path=None):
    """Read the operator's settings file, the command line and the operator's signed configuration
    (firmware/operator_config.py, its signature checked later: settle_configuration) over
    config.py's defaults, and check the whole (firmware/settings.py). Nothing is applied yet.
    Returns (problems, overrides, the signed configuration as (path, bytes, signature) or None, the
    (games, models folder, certificates folder) asked for)."""
    from firmware import operator_config, settings  # given back once settled (SETTLE_ONLY)
    from firmware.config import Config

    overrides = {}
    text = settings.read_file(settings_path) if settings_path else None
    if text is not None:
        parsed, problem = settings.parse(text)
        if problem:
            cfg = Config()
            return [problem], {}, None, (cfg.GAMES, cfg.MODELS_DIR, cfg.CERTS_DIR)
        overrides = parsed
    if games:
        overrides["GAMES"] = tuple(games)
    if models_dir:
        overrides["MODELS_DIR"] = models_dir
    if certs_dir:
        overrides["CERTS_DIR"] = certs_dir
    if juris:
        overrides["JURISDICTION"] = juris
    problems = []
    op = None
    raw, sig, problem = operator_config.read(operator_path) if operator_path else (None, None, None)
    if problem:
        problems.append(problem)
    elif raw is not None:
        op = (operator_path, raw, sig)
        try:
            fields = operator_config.parse(raw)  # what it asks for is authenticated with the rest
        except ValueError:
            pass  # named once its signature is checked (firmware/configuration.py)
        else:
            problems += operator_config.contradictions(fields, overrides)
            for name in operator_config.PROTECTED:
                overrides[name] = fields[name]
    cfg = Config(overrides)
    problems += settings.check(cfg, settings.file_exists)
    return problems, overrides, op, (cfg.GAMES, cfg.MODELS_DIR, cfg.CERTS_DIR)


# needed only to settle the configuration: given back to the heap before the games' boot check,
# the peak of a boot
SETTLE_ONLY = ("firmware.configuration", "firmware.operator_config", "firmware.money_basis", "firmware.settings",
               "firmware.strictjson")


def _release(names):
    for name in names:
        if sys.modules.pop(name, None) is not None:
            parent, _, child = name.rpartition(".")
            try:
                delattr(sys.modules[parent], child)
            except (KeyError, AttributeError):
                pass
    gc.collect()


def boot(board, games=None, models_dir=None, certs_dir=None, settings_path=None, juris=None, operator_path=None):
    from firmware import authenticate
    from firmware.configuration import settle

    _mark("boot")  # each stage named by the subsystem whose heap it adds (tools/bench/heap_census.py)
    log("boot on %s" % board.NAME)
    problems, overrides, op, asked = configure(games, models_dir, certs_dir, settings_path, juris, operator_path)
    _mark("configuration")
    queue = None
    if _has_uart(board, "sas"):  # the exceptions for the central system, before power_up raises one
        # its code and its buffer made before the books are read, beside the critical memory's: made
        # after, amid what reading them leaves behind, they cut the heap the games' boot check needs
        # (aurore-85 booted in 115K, 108K without the line); the link's code comes after the check
        from firmware.sas.exceptions import ExceptionQueue, attach_queue

        queue = ExceptionQueue()
        _mark("SAS")
    memory = open_memory(board.nvram, board.machine_secret(), board.rollback_counter())
    _mark("critical memory")
    ledger = Ledger(memory)
    ram_error = None
    try:
        for finding in ledger.open():
            log("critical memory: " + finding)
            ledger.event("nvram", finding)
        _mark("books")
        if queue is not None:
            attach_queue(ledger, queue)
        ledger.power_up()
    except (RamError, ValueError, KeyError) as e:
        ram_error = str(e)
        if queue is not None and ledger.exceptions is None:
            attach_queue(ledger, queue, None)  # the link stays (nothing read from the memory in doubt): the clear's 3A
        ledger.st = None
    _mark("books")
    problems, cfg = settle(board, ledger, problems, overrides, op, authenticate.builtin_operator(), log)
    # settled: the operator's signed configuration (its text and 384-byte signature: a vlt's is
    # always there) is not held over the games' boot check, the boot's peak
    settle = op = overrides = None
    _release(SETTLE_ONLY)
    for p in problems:
        log("configuration: " + p)
    _mark("configuration")
    gen, rng_failure = open_rng(board, ledger, cfg.MACHINE_ID)
    _mark("game")
    audit = open_audit(board, ledger)
    software, soft_status = authenticate_software(board, ledger, audit, log, *asked)
    _mark("security")
    # with a configuration in doubt no game is offered: which games, and from where, is part of it;
    # nor with software that is not the signed release
    gc.collect()  # the boot check is the boot's peak: the software check's garbage goes first (docs/build.md)
    offered = [] if problems or software else load_games(cfg.GAMES, cfg.MODELS_DIR, cfg.CERTS_DIR, ledger, cfg, log)
    playable = [g for _, ok, _, g in offered if ok]
    _mark("game")
    base = None
    if queue is not None:  # SAS 1F's base percent, from the certificate while the heap is collected
        from firmware.sas.machine import certified_base

        base = certified_base(cfg.CERTS_DIR, playable[0] if playable else None)
    # the parts' code comes in after the boot check, the boot's peak: not beside it in the heap
    from board.coin_cctalk import CoinAcceptor
    from firmware.coin_in import CoinIn
    from firmware.console import READ_MODULES, Console
    from firmware.play import for_game
    from firmware.screen import Screen

    game = playable[0] if playable else None
    # the cabinet's parts, each given what it uses; found: what making them found, tilts once the cabinet is
    found = []
    bus = Master(board.uart("cctalk"), board.idle)
    coins = CoinIn(CoinAcceptor(bus), ledger, cfg, log)
    em = open_meters(board, ledger, cfg, log) if ledger.st is not None else None
    bills = None
    prof = jurisdiction.PROFILES.get(cfg.JURISDICTION, {})
    if ledger.st is not None and (prof.get("bills") or (prof.get("tickets_in") and getattr(cfg, "TICKET_IN", False) is True)):
        from board.bill_cctalk import BillValidator
        from firmware.bill_in import BillIn

        bills = BillIn(BillValidator(bus), ledger, cfg, log)  # same ccTalk bus, address 40
    screen = Screen()
    money_out = open_money_out(board, bus, ledger, cfg, audit, screen, found, log)
    progressive = open_progressive(game, cfg.CERTS_DIR, ledger, cfg, log)
    _mark("cabinet")
    gameplay = for_game(game, gen, ledger, cfg, progressive, audit, screen, board.ticks_ms, log)
    _mark("game")
    cab = Cabinet(board, ledger, cfg, gameplay, coins, money_out, screen, bills=bills, em=em, audit=audit,
                  offered=offered, log=log)
    # a game whose boot check found no room in this heap (main.supervise: after a restart, a board reset)
    cab.starved = [gid for gid, ok, why, _ in offered if not ok and why.startswith(NO_MEMORY)]
    for kind, why in found:
        cab.set_tilt(kind, why)
    money_out.condition(cab)  # a coupon cabinet's coupon memory: no validation id yet, or too full
    _mark("cabinet")
    accounts = open_accounts(board, cab, ledger, audit, cfg)
    _mark("security")
    console = Console(board.uart("console"), cab, accounts, audit,
                      READ_MODULES if _code_form() == "frozen" else ())  # frozen: their code is in flash
    console.keep_enrol_reserve()  # where only an enrolment can make the first administrator
    _mark("cabinet")
    sas = None
    if ledger.exceptions is not None:
        from firmware.sas.machine import open_link

        sas = open_link(board, cab, log, base)
        _mark("SAS")
    cab.attach(console, sas)
    if software:  # no game; credits already on the meter are still paid (the tilt state's cash-out)
        cab.set_tilt("software", software)
    # read from the world, RAM error or not: the administrator's RAM clear fixes none of them (a clear that
    # found them unset left a cabinet idle with no game, whose PLAY raised)
    if problems:  # no money in and no play until the configuration is right; never a guess
        cab.set_tilt("config", problems[0] + (" (and %d more)" % (len(problems) - 1) if len(problems) > 1 else ""))
    if game is None and not problems and not software:
        reasons = ["%s: %s" % (gid, why) for gid, ok, why, _ in offered if not ok]
        # certified but every one over the profile's limits: the player is told so (docs/screen.md)
        over = bool(offered) and all(jurisdiction.is_refusal(cfg.JURISDICTION, why) for _, _, why, _ in offered)
        head = "no game within the %s limits to offer" % cfg.JURISDICTION if over else "no certified game to offer"
        cab.set_tilt("limits" if over else "game", head + (" (%s)" % "; ".join(reasons) if reasons else ""))
    if ram_error:
        cab.set_ram_error(ram_error)
    else:
        if rng_failure is not None:
            cab.set_tilt("rng", str(rng_failure))
        cab.resume()  # with no game too: a wager committed before the reboot is refunded, never lost
    cab.show()
    _mark("cabinet", sys.modules)
    log("ready " + json.dumps({"game": game.id if game else None, "credits": ledger.credits if ledger.st else None,
                               "state": cab.state, "runtime": sys.implementation.name, "heap": _heap_size(),
                               "code": _code_form(), "image": _image_id(), "software": soft_status,
                               "jurisdiction": cfg.JURISDICTION}))
    if hasattr(sys.stdout, "flush"):
        sys.stdout.flush()
    return cab
