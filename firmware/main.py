# Jeton firmware entry point.
#   device:        main.py at the root of the image, board chosen from sys.platform
#   emulated:      micropython -X heapsize=256K firmware/main.py [--state DIR] [--console PORT]
#                  [--cctalk PORT] [--panel PORT]
import sys


def _add_root():
    # run as a script from a checkout: make the rooms (board/, rng/, ...) importable
    f = globals().get("__file__", "")
    if "/" in f:
        root = f.rsplit("/", 2)[0] if f.count("/") >= 2 else "."
        if f.startswith("firmware/"):
            root = "."
        if root not in sys.path:
            sys.path.append(root)


_add_root()

NVRAM_SIZE = 65536  # critical memory needs ~56 KB (firmware/ledger.py LAYOUT): a 64 KB FRAM part
DEFAULTS = {"state": "var/emulated", "console": "7770", "cctalk": "7771", "panel": "7772",
            "games": "", "models": "", "certs": ""}


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


def make_board(opts):
    if sys.platform in ("linux", "darwin"):
        from board import emulated

        _mkdirs(opts["state"])
        return emulated.Board(opts["state"], int(opts["console"]), int(opts["cctalk"]), int(opts["panel"]),
                              nvram_size=NVRAM_SIZE)
    profiles = {"pyboard": "board.pyboard", "rp2": "board.rp2", "esp32": "board.esp32"}
    if sys.platform not in profiles:
        raise SystemExit("no board profile for %s" % sys.platform)
    from board.machine_board import MachineBoard, open_fram

    profile = __import__(profiles[sys.platform], None, None, ("NAME",))
    return MachineBoard(profile, open_fram(profile))  # untested on hardware so far


def _mkdirs(path):
    import os

    p = ""
    for part in path.split("/"):
        p = p + "/" + part if p else part
        try:
            os.mkdir(p)
        except OSError:
            pass


def main(argv):
    from firmware.startup import boot

    opts = parse_args(argv)
    board = make_board(opts)
    games = tuple(g for g in opts["games"].split(",") if g) or None
    boot(board, games, opts["models"] or None, opts["certs"] or None).run()


if __name__ == "__main__":
    main(sys.argv[1:])
