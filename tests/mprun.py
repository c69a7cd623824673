# In-house test runner for the MicroPython unix port (micropython-lib's unittest is not installable
# offline). Usage: micropython -X heapsize=256K tests/mprun.py tests/device/test_x.py [name ...]
# Prints one "@@MP <PASS|FAIL|SKIP> <name> <peak bytes>" line per test; tracebacks follow FAIL.
import gc
import sys

import micropython

MARK = "@@MP"


def main(argv):
    path = argv[1]
    only = argv[2:]
    d, _, fname = path.rpartition("/")
    sys.path.insert(0, d or ".")
    if "tests" not in sys.path:
        sys.path.insert(0, "tests")
    mod = __import__(fname[:-3])
    names = sorted(n for n in dir(mod) if n.startswith("test_") and callable(getattr(mod, n)))
    if only:
        names = [n for n in names if n in only]
    from devtest import SkipTest

    failed = 0
    for name in names:
        gc.collect()
        before = micropython.mem_current() if hasattr(micropython, "mem_current") else 0
        try:
            getattr(mod, name)()
        except SkipTest as e:
            print(MARK, "SKIP", name, 0, e)
            continue
        except BaseException as e:  # noqa: BLE001  report every failure, keep going
            failed += 1
            print(MARK, "FAIL", name, 0)
            sys.print_exception(e)
            print(MARK, "END", name)
            continue
        peak = micropython.mem_peak() - before if hasattr(micropython, "mem_peak") else 0
        print(MARK, "PASS", name, peak)
    print(MARK, "DONE", len(names), failed)


main(sys.argv)
