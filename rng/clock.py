# Millisecond ticks on both runtimes (MicroPython's time.ticks_* wrap: always use ticks_diff).
try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b
