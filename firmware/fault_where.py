# Where an exception was raised, in a few words for a console reply or a log line: the innermost
# frame's file, line and function, as MicroPython's print_exception writes them (CPython: from the
# traceback). A command that ran out of memory says where, so a report names the allocation that
# failed and not only the command (a heap in pieces fails in one place one run in three).
import sys

_ROOMS = ("rng", "games", "board", "firmware", "tests")


def _short(path):
    # the path from its room on: "rng/crypto/rsa.py" whether frozen (relative) or a source file
    parts = path.replace("\\", "/").split("/")
    for i in range(len(parts)):
        if parts[i] in _ROOMS:
            return "/".join(parts[i:])
    return parts[-1]


def where(e):
    """' at FILE:LINE (FUNCTION)' of the innermost frame of e, or '' when it cannot be had (no
    traceback, or no memory left to read it)."""
    try:
        pe = getattr(sys, "print_exception", None)
        if pe is None:  # CPython
            tb = e.__traceback__
            if tb is None:
                return ""
            while tb.tb_next is not None:
                tb = tb.tb_next
            code = tb.tb_frame.f_code
            return " at %s:%d (%s)" % (_short(code.co_filename), tb.tb_lineno, code.co_name)
        import io

        out = io.StringIO()
        pe(e, out)
        last = None
        for line in out.getvalue().split("\n"):
            line = line.strip()
            if line.startswith("File "):
                last = line  # File "rng/crypto/rsa.py", line 41, in mulmod
        if last is None:
            return ""
        q = last.split('"')
        rest = q[2].split(",")  # '', ' line 41', ' in mulmod'
        return " at %s:%s (%s)" % (_short(q[1]), rest[1].split()[-1], rest[2].split()[-1])
    except (MemoryError, IndexError, AttributeError):
        return ""
