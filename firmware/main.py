# Jeton firmware entry point.
#   device:        main.py at the root of the image, board chosen from sys.platform
#   emulated:      micropython -X heapsize=256K firmware/main.py [--state DIR] [--console PORT]
#                  [--cctalk PORT] [--panel PORT] [--games ID,ID] [--models DIR] [--certs DIR]
#                  [--profile emulated|pyboard|rp2|esp32] [--jurisdiction casino|vlt] [--operator FILE]
#                  [--sas FD]   (the SAS line: a pseudo-terminal's master the harness opened, sim/sas_pty.py)
import sys


def _add_root():
    # run as a script from a checkout: make the rooms (board/, rng/, ...) importable
    here = globals().get("__file__", "").rpartition("/")[0]  # .../firmware
    if here:
        root = here.rpartition("/")[0] or "."
        if root not in sys.path:
            sys.path.append(root)


_add_root()

# the ledger's, the security and the coupon memories' layouts placed one above the other (their sizes:
# docs/nvram.md's map, written by python -m tools.nvram_map): a 128 KB FRAM part
NVRAM_SIZE = 131072
# --profile: the board profile the firmware boots as on the emulated board: "emulated" (every wire),
# or a real board's profile, whose wires only it gets (board/emulated.py Board, `profile`)
DEFAULTS = {"state": "var/emulated", "console": "7770", "cctalk": "7771", "panel": "7772",
            "games": "", "models": "", "certs": "", "profile": "emulated", "settings": "",
            "printer": "", "jurisdiction": "", "sas": "", "operator": ""}
PROFILES = {"pyboard": "board.pyboard", "rp2": "board.rp2", "esp32": "board.esp32"}


def parse_args(argv):
    opts = dict(DEFAULTS)
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--") and a[2:] in opts and i + 1 < len(argv):
            opts[a[2:]] = argv[i + 1]
            i += 2
        else:
            raise SystemExit("unknown argument %r" % a)
    return opts


def load_profile(name):
    """The pin map module of a real board profile (board/pyboard.py ...)."""
    if name not in PROFILES:
        raise SystemExit("no board profile %r (emulated, %s)" % (name, ", ".join(sorted(PROFILES))))
    return __import__(PROFILES[name], None, None, ("NAME",))


def make_board(opts, platform=sys.platform):
    if platform in ("linux", "darwin"):
        from board import emulated, state_lock

        profile = None if opts["profile"] == "emulated" else load_profile(opts["profile"])
        _mkdirs(opts["state"])
        try:
            b = emulated.Board(opts["state"], int(opts["console"]), int(opts["cctalk"]), int(opts["panel"]),
                               nvram_size=NVRAM_SIZE, profile=profile,
                               printer_port=int(opts["printer"]) if opts["printer"] else None,
                               sas_fd=int(opts["sas"]) if opts["sas"] else None)
        except state_lock.Busy as e:
            print("jeton: %s" % e)  # one line naming the running cabinet, and a status of its own
            raise SystemExit(state_lock.BUSY_EXIT)
        # the ports bound, before anything else: a port given as 0 was chosen by the board
        print("jeton: ports " + " ".join("%s=%d" % rp for rp in b.ports))
        return b
    from board.machine_board import MachineBoard, open_fram

    profile = load_profile(platform)  # on a board, the platform is the profile
    return MachineBoard(profile, open_fram(profile))  # untested on hardware so far


def _mkdirs(path):
    import os

    p = "/" if path.startswith("/") else ""  # an absolute path stays absolute (not made under the cwd)
    for part in path.split("/"):
        if part:
            p += part
            try:
                os.mkdir(p)
            except OSError:
                pass
            p += "/"


# Needed once, at power-up: their bytecode goes back to the heap once the cabinet runs (on a board
# they live in flash; on the emulated board the 256K heap holds every module's bytecode).
BOOT_ONLY = ("games.certificate", "games.exact", "games.floor", "rng.selftest", "firmware.startup", "firmware.settings",
             "firmware.strictjson", "board.state_lock", "firmware.authenticate", "rng.crypto.rsa",
             "firmware.image_hmac", "firmware.operator_config", "firmware.money_basis", "firmware.configuration")


def start(board, opts):
    from firmware.startup import boot

    games = tuple(g for g in opts["games"].split(",") if g) or None
    # the operator's settings file (firmware/settings.py): STATE/settings.json on the emulated board
    emulated = sys.platform in ("linux", "darwin")
    path = opts["settings"] or (opts["state"] + "/settings.json" if emulated else "settings.json")
    # the operator's signed configuration (firmware/operator_config.py): STATE/operator.json on the emulated board
    op = opts["operator"] or (opts["state"] + "/operator.json" if emulated else "operator.json")
    return boot(board, games, opts["models"] or None, opts["certs"] or None, path, opts["jurisdiction"] or None, op)


def release(names):
    import gc

    for name in names:
        if sys.modules.pop(name, None) is not None:
            parent, _, child = name.rpartition(".")
            try:
                delattr(sys.modules[parent], child)
            except (KeyError, AttributeError):
                pass
    gc.collect()


def release_since(kept):
    """release() the modules imported since `kept` (sys.modules' names then) one at a time, making
    no list of them: the failed run they belong to may have left no room for one (a 48K heap's boot
    that ran out in settings.py: 128 bytes not found for that list, a traceback and exit status 1)."""
    while True:
        for name in sys.modules:
            if name not in kept:
                break
        else:
            return
        release((name,))  # collected at once: each one's room is there for the next


# While the cabinet boots, the heap is collected every BOOT_GC_BYTES allocated (MicroPython's
# gc.threshold), not only when an allocation finds no room: left to fill the heap to its top between
# collections, the boot check's garbage pushed each object made meanwhile up the free heap, and the
# ones that live (the game's tables, the cabinet's parts) were left strewn across it once collected.
# roulette-americaine-92 at 112K with its SAS line: the largest free piece after boot 544 bytes of
# 14 KB free, or the 1,016 bytes of the enrolment's reserve not found (a board reset). Collected this
# often, what lives is packed at the heap's low end: 7-11 KB in one piece (4 KB: 10-14 KB, for twice
# the collections; docs/build.md "Heap"). Some hundreds of collections more at power-up (a boot
# allocates 1.4-5.5 MB in all); none in play, whose SAS replies keep their time.
BOOT_GC_BYTES = 8192


def collect_every(n):
    """A collection every n bytes allocated (-1: only when the heap is full); nothing on CPython."""
    import gc

    if hasattr(gc, "threshold"):
        gc.threshold(n)


RESTARTS = 3  # failures in a row (a boot, or a run shorter than HEALTHY_MS) before a real board reset
HEALTHY_MS = 60000


def supervise(boot, reset, clock, log=print, detach=None):
    """Run the cabinet; when it fails (MemoryError, or a fault no test found) start it again from
    what NVRAM holds, as a watchdog reset would: everything in RAM is dropped, so a change half made
    in RAM can never be committed later, and the restart is recorded in the event log. RESTARTS
    failures in a row ask the board for a real reset (a fresh heap): a machine that cannot run must
    not spin; so does a restart whose boot check found no memory for a game. detach: the board's
    (hal.Board.detach), letting go of what the failed cabinet gave it."""
    from board.compat import ticks_diff

    # What power-up imported (the board's, this module's). The modules the failed run imported go
    # with it: kept, they would hold the heap that the first boot's game check had (s37h: aurore-93's
    # 530 bytes not found after a restart, 27 KB more in use than at power-up), and a restart must
    # start from the heap a power-up has, as a watchdog reset does.
    powerup = tuple(sys.modules)
    failed = 0
    why = None
    while True:
        cab = None
        started = None
        try:
            collect_every(BOOT_GC_BYTES)
            try:
                cab = boot()
            finally:
                collect_every(-1)
            if why and cab.ledger.st is not None:
                cab.ledger.event("restart", why)
            if why and cab.starved:
                # the heap the failed run left in pieces: a game's boot check found no room in it
                # (an aurore-93 walk's restart: 536 bytes), which a fresh heap has. Once: after a
                # real reset nothing failed before the boot, and a board short of memory plays on
                log("jeton: %s: no memory for %s's boot check after the restart: board reset"
                    % (why, ", ".join(cab.starved)))
                reset()
                return
            release(BOOT_ONLY)  # boot()'s frame is gone: nothing holds them any more
            started = clock()
            cab.run()
            return
        except Exception as e:  # noqa: BLE001  the watchdog's job; SystemExit and KeyboardInterrupt pass
            pe = getattr(sys, "print_exception", None)  # MicroPython: where it failed, for the record
            if pe is not None:
                pe(e)
            if started is not None and ticks_diff(clock(), started) >= HEALTHY_MS:
                failed = 0
            failed += 1
            cab = None
            if detach is not None:
                try:
                    detach()
                except Exception:  # noqa: BLE001  a board that cannot let go still restarts the cabinet
                    pass
            try:
                release_since(powerup)
                why = "out of memory" if isinstance(e, MemoryError) else "fault %s: %s" % (type(e).__name__, e)
            except MemoryError:  # no room left even to let go of the failed run: only a fresh heap helps
                log("jeton: out of memory, no room to restart the cabinet: board reset")
                reset()
                return
            if failed >= RESTARTS:
                log("jeton: %s, %d times in a row: board reset" % (why, failed))
                reset()
                return
            log("jeton: %s: restarting the cabinet from critical memory" % why)


# Imported when first needed (the paytable text, the console's reading commands). Compiled from
# source, such a late import needs the compiler's parse tree in a heap by then three-quarters full:
# it can fail with tens of KB free. A firmware run from .py (not the .mpy of tools.image, nor
# frozen) therefore imports them at power-up, while the heap is still empty.
LATE = ("games.text", "firmware.console_read")


def preload_if_source():
    f = getattr(sys.modules.get("firmware.config"), "__file__", "")
    if f.endswith(".py"):
        for name in LATE:
            __import__(name)


ROM = "/rom"  # where a firmware image's frozen data (models, certificates) is mounted


def mount_data(opts, config):
    """A firmware image carries the models and certificates as a frozen ROMFS (manifest.py): mount
    it and read them there unless told otherwise. Without one they are read from the file system."""
    try:
        import jeton_rom
        import vfs
    except ImportError:
        return False
    vfs.mount(vfs.VfsRom(jeton_rom.ROMFS), ROM)  # the bytes stay in the image: no heap copy
    opts["models"] = opts["models"] or ROM + "/" + config.MODELS_DIR
    opts["certs"] = opts["certs"] or ROM + "/" + config.CERTS_DIR
    return True


def main(argv):
    collect_every(BOOT_GC_BYTES)  # from the first import on (supervise sets it again at each boot)
    from firmware import config  # noqa: F401  (how it was loaded tells how the rest will be)

    opts = parse_args(argv)
    mount_data(opts, config)
    preload_if_source()
    board = make_board(opts)
    supervise(lambda: start(board, opts), board.reset, board.ticks_ms, print, board.detach)


if __name__ == "__main__":
    main(sys.argv[1:])
