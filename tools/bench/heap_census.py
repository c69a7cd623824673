"""The heap in use after boot, by subsystem (issue 25: "so the next saving is visible"): books,
critical memory, security, the game, SAS, and the rest of the cabinet, its board's drivers apart.

Measured on the firmware image by difference, after a collection each time (gc.mem_alloc()):
- the code: each module the cabinet holds once booted is imported alone, before the firmware's
  main, in an order where a module comes after the modules it imports at its top, so that its
  figure is its own (its globals, functions and classes: on a frozen image the bytecode is in flash);
- the objects: the boot (firmware/startup.py `boot`) marks the heap after each stage when its
  census is on (`startup.TRACE`, set by the boot line), each stage named by the subsystem it builds;
- what the cabinet gives back once booted (main.BOOT_ONLY) and what its main loop, the console's
  sign-in and the SAS host's first round of polls add: the heap in use then (console `mem`) less
  the last mark.
The figures add up to that heap in use. Two boots per game: the first finds the modules a booted
cabinet holds (the boot's last mark lists them), the second imports them first, one by one.
"""
from __future__ import annotations

import ast
import re
import tempfile
import threading
from pathlib import Path

from sim.harness import ROOT, EmulatedCabinet

# the rows, in the order the table prints them; "cabinet" is the firmware's own rest (states, money
# in and out, screen, console), "board" the board's drivers and its own objects
# CPython 3.11's ast.parse is not safe in threads ("SystemError: AST constructor recursion depth
# mismatch", python/cpython#106905): bench_heap measures cabinets in a thread pool, each census parses
_PARSE = threading.Lock()
SUBSYSTEMS = ("critical memory", "books", "security", "game", "SAS", "cabinet", "board")
_BY_NAME = (  # a module's subsystem: the first pattern its name matches
    ("SAS", r"firmware\.sas(\..*)?$|board\.sas_"),
    ("critical memory", r"firmware\.critmem$|board\.(nvram_\w+|counter_file|secret_file)$"),
    ("books", r"firmware\.(ledger|eventlog|recall|note_counts|\w+_books)$"),
    ("security", r"firmware\.(audit\w*|accounts|enrolment|console_access|authenticate|image_hmac)$"
                 r"|rng\.crypto(\..*)?$|jeton_key$"),
    ("game", r"(games|rng)(\..*)?$|firmware\.(play\w*|progressive|table_bounds|tournament)$|jeton_rom$"),
    ("board", r"board(\..*)?$"),
)
MARK = re.compile(r"^jeton: heap (.+) (\d+)$")
MODULES = "jeton: heap modules "
# the boot line (sim/harness.py FirmwareProcess.boot_line): the modules named in the file, one a
# line (NAMES: its path), imported one by one with the heap after each, then the firmware's main with
# the census on
BOOT_LINE = """import sys, gc
sys.path.remove('')
def _m(w):
    gc.collect()
    print('jeton: heap %s %d' % (w, gc.mem_alloc()))
_m('start')
for n in open(NAMES):
    n = n.strip()
    __import__(n)
    _m('code ' + n)
n = _m = None
__import__('firmware.startup').startup.TRACE = 1
from firmware.main import main
main(sys.argv[1:])
"""


def subsystem(module: str) -> str:
    for name, pattern in _BY_NAME:
        if re.match(pattern, module):
            return name
    return "cabinet"


def parse(lines: list[str]) -> tuple[list[tuple[str, int]], list[str]]:
    """The firmware's census lines: its marks (name, heap in use) in order, and the modules listed
    at the boot's end."""
    marks: list[tuple[str, int]] = []
    modules: list[str] = []
    for line in lines:
        if line.startswith(MODULES):
            modules = line[len(MODULES):].split()
        elif m := MARK.match(line):
            marks.append((m.group(1), int(m.group(2))))
    return marks, modules


def _top_imports(module: str, root: Path) -> list[str]:
    """The modules a module imports at its top (not in a function): `import a.b`, `from a import b`
    (b a submodule or not); none for a module that is not a file here (jeton_rom: frozen data)."""
    path = root / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    if not path.is_file():
        return []
    out = []
    with _PARSE:
        tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return out


def import_order(modules: list[str], root: Path = ROOT) -> list[str]:
    """The modules, each after those of them it imports at its top and after its package."""
    wanted = set(modules)
    done: list[str] = []
    seen: set[str] = set()

    def visit(m: str) -> None:
        if m in seen:
            return
        seen.add(m)
        parent = m.rpartition(".")[0]
        deps = ([parent] if parent else []) + _top_imports(m, root)
        for d in deps:
            if d in wanted:
                visit(d)
        done.append(m)

    for m in sorted(modules):
        visit(m)
    return done


def held(modules: list[str], extra: tuple[str, ...] = ()) -> list[str]:
    """The modules the boot's last mark listed and `extra` (modules imported later that the census
    counts too: the SAS handlers of the host's polls), with firmware/main.py itself, which the boot
    line imports, and without the console's reading modules (dropped after each command on a frozen
    image: console.READ_MODULES). Those given back once booted (main.BOOT_ONLY) stay: imported
    ahead too, the boot's first mark holds only the board's objects; attribute() sets them apart."""
    from firmware.console import READ_MODULES

    gone = set(READ_MODULES) | {"__main__"}
    return [m for m in dict.fromkeys(list(modules) + list(extra) + ["firmware.main"]) if m not in gone]


def sas_handlers(commands: tuple[int, ...]) -> tuple[str, ...]:
    """The modules of firmware/sas/ that answer these long polls, imported at their first poll
    (firmware/sas/polls.py TABLE, MODULES)."""
    from firmware.sas import polls

    out = []
    for cmd in commands:
        i = polls.find(cmd)
        mod = polls.TABLE[i + 3] if i >= 0 else 0
        if mod:
            out.append("firmware.sas." + polls.MODULES[mod])
    return tuple(dict.fromkeys(out))


def attribute(marks: list[tuple[str, int]], after: int, boot_only: tuple[str, ...] = ()) -> dict:
    """Per subsystem the heap of its code and of its objects, from the census marks of a boot whose
    modules were imported first and the heap in use once booted (`after`): {"start": the interpreter
    and the boot line, "code": {subsystem: bytes}, "objects": {...}, "modules": {module: bytes},
    "boot_only": the code of the modules in `boot_only` (given back once booted: main.BOOT_ONLY),
    "boot": what the board's objects add before boot() starts, "later": after less the last mark
    (what was given back once booted, less what the main loop, the console's sign-in and the first
    polls added), "total": after}. The figures add up to the total."""
    out: dict = {"code": dict.fromkeys(SUBSYSTEMS, 0), "objects": dict.fromkeys(SUBSYSTEMS, 0), "modules": {},
                 "boot_only": 0, "boot": 0}
    if not marks or marks[0][0] != "start":
        raise ValueError("no census: the boot line's first mark is missing")
    out["start"] = prev = marks[0][1]
    for name, used in marks[1:]:
        delta, prev = used - prev, used
        if name.startswith("code "):
            module = name[5:]
            out["modules"][module] = delta
            if module in boot_only:
                out["boot_only"] += delta
            else:
                out["code"][subsystem(module)] += delta
        elif name == "boot":
            out["boot"] = delta
        elif name == "configuration":  # settled and given back (startup.SETTLE_ONLY): what stays is the cabinet's
            out["objects"]["cabinet"] += delta
        elif name in SUBSYSTEMS:
            out["objects"][name] += delta
        else:
            raise ValueError(f"a census mark of no subsystem: {name!r}")
    out["later"] = after - prev
    out["total"] = after
    return out


# the census's heap: the heap in use does not depend on it, and its second boot has every module in
# the heap before the games' boot check (four games' boots ran out of memory at 128K so, craps-83 at 192K)
CENSUS_K = 256


def census(game: str, heap_k: int = CENSUS_K, code: str = "frozen", settle: float = 60.0,
           juris: str = "casino") -> dict:
    """Two boots of the game's cabinet with its SAS line, polled by the floor's system until each of
    its long polls was answered, under the jurisdiction profile juris: attribute()'s figures of the
    second, with "plain": the heap in use after the first (no module imported ahead)."""
    from tools.bench.bench_heap import FLOOR_LONG, FloorSystem, _heap_used

    result: dict = {}
    modules: list[str] = []
    with tempfile.TemporaryDirectory(prefix="jeton-census-") as d:
        names = Path(d) / "modules.txt"
        for first in (True, False):
            names.write_text("" if first else "\n".join(import_order(held(modules, sas_handlers(
                tuple(c for c, _ in FLOOR_LONG))))) + "\n")
            cab = EmulatedCabinet(Path(d) / ("one" if first else "two"), heap=f"{heap_k}K", code=code, sas=True,
                                  extra_args=["--games", game] + (["--jurisdiction", juris] if juris != "casino" else []))
            cab.firmware.boot_line = BOOT_LINE.replace("NAMES", repr(str(names)))
            floor = None
            try:
                cab.boot()
                floor = FloorSystem(cab.sas_path)
                if not floor.wait_round(settle):
                    raise TimeoutError(f"{game}: the SAS host's first round was not answered")
                after = _heap_used(cab)
            finally:
                if floor is not None:
                    floor.stop()
                cab.shutdown()
                cab.close_sas()
            marks, listed = parse(cab.firmware.lines)
            if first:
                modules, result["plain"] = listed, after
            else:
                from firmware.main import BOOT_ONLY

                result.update(attribute(marks, after, BOOT_ONLY))
    return result


def table(rows: dict[str, dict]) -> list[str]:
    """The census of each game as lines: each subsystem's heap (its code and its objects; the
    board's objects are made before boot() starts), the interpreter with the boot line, the code
    given back once booted, what came and went then ("later"), and the total (the heap in use
    then); "plain": the total of a boot that imported nothing ahead, for comparison. Under each
    row, the code's share of each and the heaviest modules."""
    heads = ("crit.mem", "books", "security", "game", "SAS", "cabinet", "board")
    out = [f"{'game':<22} " + " ".join(f"{h:>8}" for h in heads) +
           f" {'interp.':>7} {'bootonly':>8} {'later':>7} {'total':>7} {'plain':>7}"]
    for game, r in rows.items():
        cells = [r["code"][s] + r["objects"][s] + (r["boot"] if s == "board" else 0) for s in SUBSYSTEMS]
        out.append(f"{game:<22} " + " ".join(f"{c:>8}" for c in cells) +
                   f" {r['start']:>7} {r['boot_only']:>8} {r['later']:>7} {r['total']:>7} {r.get('plain', '-'):>7}")
        out.append(f"{'':<22} code: " + ", ".join(f"{s} {r['code'][s]}" for s in SUBSYSTEMS))
        out.append(f"{'':<22} heaviest modules: {heaviest(r)}")
    return out


def heaviest(r: dict, n: int = 8) -> str:
    """The n modules whose code holds the most heap: where the next saving may be."""
    top = sorted(r["modules"].items(), key=lambda kv: -kv[1])[:n]
    return ", ".join(f"{m} {b}" for m, b in top)
