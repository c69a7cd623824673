# What differs between MicroPython and CPython, in one place (device code imports from here).
import time

try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython

    def const(x):
        return x


try:
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
except AttributeError:  # CPython: monotonic ms; no wrap to worry about
    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

try:
    sleep_ms = time.sleep_ms
except AttributeError:
    def sleep_ms(ms):
        time.sleep(ms / 1000)

try:
    from machine import PinBase  # unix port: subclass with value() and machine.Signal works on top
except ImportError:
    PinBase = object
