"""Run one exact computation in a forked child while this process does another (the two reel sets
of a 5x3 game take about the same time, and a lab workstation has more than one core).

The child only computes and writes its pickled result to a pipe, then leaves with os._exit: no
atexit handler, no stdio flush, nothing that could wait on a lock another thread held at the fork.
Where fork does not exist, or fork=False, the function simply runs here, first.
"""
from __future__ import annotations

import os
import pickle
from typing import Callable, TypeVar

from games.limits import ModelError

T = TypeVar("T")


def beside(fn: Callable[..., T], *args, fork: bool = True) -> Callable[[], T]:
    """Start fn(*args) in a forked child; the returned callable waits for it and returns its result
    (or raises what it raised: a ModelError as itself, anything else as a RuntimeError naming it).
    fork=False runs it here and now."""
    if not fork or not hasattr(os, "fork"):
        value = fn(*args)
        return lambda: value
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.close(r)
            try:
                out = pickle.dumps((True, fn(*args)), pickle.HIGHEST_PROTOCOL)
            except BaseException as e:  # noqa: BLE001  the parent raises it, by name
                out = b""
                if isinstance(e, ModelError):  # a model refused past a limit stays a refusal
                    try:
                        out = pickle.dumps((False, e))
                        pickle.loads(out)
                    except Exception:  # noqa: BLE001  not picklable after all: its name and text below
                        out = b""
                out, code = out or pickle.dumps((False, f"{type(e).__name__}: {e}")), 1
            with os.fdopen(w, "wb") as f:
                f.write(out)
        finally:
            os._exit(code)
    os.close(w)

    def result() -> T:
        try:
            with os.fdopen(r, "rb") as f:
                data = f.read()
        finally:
            os.waitpid(pid, 0)
        if not data:
            raise RuntimeError(f"{getattr(fn, '__name__', fn)}: the child process died without a result")
        ok, value = pickle.loads(data)
        if not ok and isinstance(value, ModelError):
            raise value
        if not ok:
            raise RuntimeError(f"{getattr(fn, '__name__', fn)} in the child process: {value}")
        return value

    return result
