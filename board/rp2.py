# Raspberry Pi Pico / Pico 2 (RP2040 / RP2350) wiring. Entropy: ring oscillator (RP2040, conditioned)
# or the RP2350 TRNG (see rng/).
NAME = "rp2"
ENTROPY = "rp2"  # rng picks the RP2350 TRNG where present, else the RP2040 ring oscillator (conditioned)
UARTS = {"cctalk": (0, 9600, 0, 1), "console": (1, 115200, 4, 5)}
PINS = {
    "bet_one": 6, "bet_max": 7, "play": 8, "cashout": 9,
    "door_main": 10, "door_logic": 11, "door_cashbox": 12,
    "key_audit": 13, "key_reset": 14,
    "lamp_play": 16, "lamp_cashout": 17, "lamp_tower": 18, "lamp_bet": 19,
}
# Critical memory: a 128 KB I2C FRAM (e.g. MB85RC1MT: the ledger and the security log) on I2C1, GP2 SDA / GP3 SCL, address 0x50.
FRAM = {"i2c": 1, "scl": 3, "sda": 2, "addr": 0x50, "size": 131072, "freq": 400000}
# The firmware as stored (board.image(): the boot check and `verify SEED`): the program region of
# a 2 MB Pico's flash, mapped at 0x10000000 (XIP), ahead of MicroPython's 1408 KB file system
# (ports/rp2/boards/RPI_PICO/mpconfigboard.h MICROPY_HW_FLASH_STORAGE_BYTES): 640 KB.
IMAGE = ("firmware/firmware-rp2.bin", ((0x10000000, 640 * 1024),))
