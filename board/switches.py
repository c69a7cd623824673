# Buttons: a press is latched by the pin's edge IRQ, so it is never lost between two scans of the
# main loop; edges closer than the debounce time to the last accepted one are contact bounce.
from board import hal
from board.compat import ticks_diff, ticks_ms


class Button:
    def __init__(self, pin, debounce_ms=30, active_high=True, clock=ticks_ms):
        self.pin = pin
        self.clock = clock  # the board's millisecond clock
        self.debounce_ms = debounce_ms
        self._edge = hal.IRQ_RISING if active_high else hal.IRQ_FALLING
        self._pressed = False
        self._last = clock() - debounce_ms
        pin.irq(self._on_edge, self._edge)

    def _on_edge(self, pin):
        # IRQ context: no allocation, just a flag and a timestamp
        now = self.clock()
        if ticks_diff(now, self._last) >= self.debounce_ms:
            self._last = now
            self._pressed = True

    def take(self):
        """True once per press."""
        p = self._pressed
        self._pressed = False
        return p
