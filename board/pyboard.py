# Pyboard v1.1 (STM32F405) wiring. Entropy: the STM32 hardware RNG via pyb.rng() (see rng/).
NAME = "pyboard"
ENTROPY = "stm32"
# (uart id, baud, tx pin, rx pin[, more keywords of machine.UART]); None pins: the port's fixed pins
# for that UART (MicroPython ports/stm32/boards/PYBV11/mpconfigboard.h: UART(1) X9/X10, UART(2)
# X3/X4, UART(3) Y9/Y10, UART(4) X1/X2, UART(6) Y1/Y2).
# SAS on UART(6) (Y1 TX, Y2 RX; the lamps moved to Y11/Y12 for it): 9-bit characters, the wakeup
# bit the 9th (bits=9 takes parity=None: ports/stm32/uart.c uart_init). rxbuf counts characters
# (two bytes each in the heap): room for the longest poll taken, board/sas_link.py RX_MAX.
# The console on UART(4) (X1 TX, X2 RX; the bet buttons moved to Y7/Y8 for it): UART(3)'s Y9/Y10
# are I2C bus 2's SCL/SDA, the FRAM's (mpconfigboard.h: MICROPY_HW_I2C2_SCL/SDA pin_B10/pin_B11).
SAS_RXBUF = 256
UARTS = {"cctalk": (1, 9600, None, None), "console": (4, 115200, None, None),
         "sas": (6, 19200, None, None, {"bits": 9, "parity": None, "stop": 1, "rxbuf": SAS_RXBUF})}
PINS = {
    "bet_one": "Y7", "bet_max": "Y8", "play": "X3", "cashout": "X4",
    "door_main": "X5", "door_logic": "X6", "door_cashbox": "X7",
    "key_audit": "X8", "key_reset": "X11",
    "lamp_play": "Y11", "lamp_cashout": "Y12", "lamp_tower": "Y3", "lamp_bet": "Y4",
}
# The calendar clock SAS 7F sets (board/machine_board.py set_clock): machine.RTC().datetime((year,
# month, day, weekday, hours, minutes, seconds, subseconds)), weekday 1-7 for Monday to Sunday
# (MicroPython's pyb.RTC docs; ports/stm32/rtc.c hands it to the HAL as RTC_WEEKDAY_MONDAY = 1 on).
# The pyboard's 32 kHz crystal keeps it through a power cut while a battery holds VBAT.
RTC_MONDAY = 1
# Critical memory: a 128 KB I2C FRAM (e.g. MB85RC1MT: the ledger and the security log) on I2C bus 2
# (Y9 SCL / Y10 SDA), address 0x50.
FRAM = {"i2c": 2, "scl": None, "sda": None, "addr": 0x50, "size": 131072, "freq": 400000}
# The firmware as stored (board.image()): sector 0 (the vector table, 16 KB at 0x08000000) and
# sectors 5-11 (896 KB at 0x08020000); sectors 1-4 between them are the file system
# (MicroPython ports/stm32/boards/stm32f405.ld: FLASH_ISR, FLASH_FS, FLASH_TEXT).
IMAGE = ("firmware/firmware-pyboard.bin", ((0x08000000, 16 * 1024), (0x08020000, 896 * 1024)))
