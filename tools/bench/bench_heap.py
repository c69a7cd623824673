"""Heap: the smallest fixed heap (-X heapsize) in which the real firmware carries a whole session —
boot, 3 tokens, 10 games, every read-only console command, cash-out — with its modules loaded from
.mpy (tools.image, as a board loads them) and, as the reference, from source compiled on the device.

Figures are the smallest passing heap as a fraction of the 256K budget (lower is better) and the
headroom it leaves; the search is a bisection in 8K steps.
"""
from __future__ import annotations

import tempfile

from sim.harness import READ_COMMANDS, EmulatedCabinet

BUDGET_K = 256
STEP_K = 8


def session_fits(heap_k: int, compiled: bool) -> bool:
    with tempfile.TemporaryDirectory(prefix="jeton-heap-") as d:
        cab = EmulatedCabinet(d, heap=f"{heap_k}K", compiled=compiled)
        try:
            cab.boot()
            for _ in range(3):
                cab.insert_token()
            for _ in range(10):
                cab.play()
            assert cab.console is not None
            for c in READ_COMMANDS:
                if any(line.startswith("error") for line in cab.console.command(c)):
                    return False
            cab.cash_out()
            restarts = [l for l in cab.firmware.lines if "restarting the cabinet" in l or "board reset" in l]
            return not restarts and cab.firmware.alive()
        except (RuntimeError, TimeoutError, OSError, AssertionError):
            return False
        finally:
            cab.shutdown()


def smallest_heap(compiled: bool, lo_k: int = 128, hi_k: int = BUDGET_K) -> int | None:
    """Smallest multiple of STEP_K in (lo_k, hi_k] where the session fits, or None."""
    if not session_fits(hi_k, compiled):
        return None
    while hi_k - lo_k > STEP_K:
        mid = (lo_k + hi_k) // 2 // STEP_K * STEP_K
        if session_fits(mid, compiled):
            hi_k = mid
        else:
            lo_k = mid
    return hi_k


def main() -> None:
    print(f"{'modules':<26} {'smallest heap':>13} {'of budget':>9} {'headroom':>9}")
    for label, compiled in (("source (reference)", False), (".mpy (tools.image)", True)):
        k = smallest_heap(compiled)
        if k is None:
            print(f"{label:<26} {'> ' + str(BUDGET_K) + 'K':>13}")
            continue
        print(f"{label:<26} {str(k) + 'K':>13} {k / BUDGET_K:>9.2f} {str(BUDGET_K - k) + 'K':>9}")


if __name__ == "__main__":
    main()
