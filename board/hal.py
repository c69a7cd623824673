# The hardware abstraction every board profile implements. Firmware talks to these objects only.
#
# board.NAME            "emulated" | "pyboard" | "rp2" | "esp32"
# board.ENTROPY         entropy source kind for rng.open_source()
# board.uart(role)      byte stream: read(n) -> bytes|None, readinto(buf) -> n|None, write(buf) -> n,
#                       any() -> bytes waiting. Roles: "cctalk", "console".
# board.pin(name)       input, value() -> 0/1, irq(handler, trigger) (handler(pin) on edges).
#                       Names: BUTTONS + DOORS + KEYS below, and COIN_PULSE where fitted.
# board.lamp(name)      output, value(v). Names: LAMPS below.
# board.meter(name)     electromechanical meter coil, value(v) (1 = energised). Names: METERS.
# board.door_latch      None, or a battery-backed "door opened while off" latch:
#                       read() -> names, clear() (see board/doors.py).
# board.display         show(screen: dict) -> None (whatever the cabinet's display is).
# board.nvram           read(off, n) -> bytes, write(off, data), size: battery-backed / persistent.
# board.idle(ms)        wait up to ms for I/O or time to pass: the main loop's only place to sleep.
# board.ticks_ms()      monotonic millisecond clock (wraps on devices: use ticks_diff).
#
# Profiles: board/emulated.py (unix port, host-driven), board/pyboard.py, board/rp2.py,
# board/esp32.py (pin maps over board/machine_board.py).
from board.compat import const

IRQ_FALLING = const(1)
IRQ_RISING = const(2)

BUTTONS = ("bet_one", "bet_max", "play", "cashout")
DOORS = ("door_main", "door_logic", "door_cashbox")
KEYS = ("key_audit", "key_reset")
INPUTS = BUTTONS + DOORS + KEYS
LAMPS = ("lamp_play", "lamp_cashout", "lamp_tower", "lamp_bet")
# pulse coin acceptor outputs (board/coin_pulse.py): one line per coin value, or line 1 alone
COIN_PULSE = ("coin_pulse_1", "coin_pulse_2", "coin_pulse_3", "coin_pulse_4")
# electromechanical meters (board/meters_em.py)
METERS = ("meter_in", "meter_out", "meter_drop", "meter_jackpot", "meter_games")


class BoardBase:
    """The accessors every profile shares; a profile fills uarts, pins, lamps and meters."""

    def uart(self, role):
        return self.uarts[role]

    def pin(self, name):
        return self.pins[name]

    def lamp(self, name):
        return self.lamps[name]

    def meter(self, name):
        return self.meters[name]
