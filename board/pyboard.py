# Pyboard v1.1 (STM32F405) wiring. Entropy: the STM32 hardware RNG via pyb.rng() (see rng/).
NAME = "pyboard"
ENTROPY = "stm32"
# (uart id, baud, tx pin, rx pin); None pins: the port's fixed pins for that UART
UARTS = {"cctalk": (1, 9600, None, None), "console": (3, 115200, None, None)}
PINS = {
    "bet_one": "X1", "bet_max": "X2", "play": "X3", "cashout": "X4",
    "door_main": "X5", "door_logic": "X6", "door_cashbox": "X7",
    "key_audit": "X8", "key_reset": "X11",
    "lamp_play": "Y1", "lamp_cashout": "Y2", "lamp_tower": "Y3", "lamp_bet": "Y4",
}
# Critical memory: a 128 KB I2C FRAM (e.g. MB85RC1MT: the ledger and the security log) on I2C bus 2
# (Y9 SCL / Y10 SDA), address 0x50.
FRAM = {"i2c": 2, "scl": None, "sda": None, "addr": 0x50, "size": 131072, "freq": 400000}
# The firmware as stored (board.image()): sector 0 (the vector table, 16 KB at 0x08000000) and
# sectors 5-11 (896 KB at 0x08020000); sectors 1-4 between them are the file system
# (MicroPython ports/stm32/boards/stm32f405.ld: FLASH_ISR, FLASH_FS, FLASH_TEXT).
IMAGE = ("firmware/firmware-pyboard.bin", ((0x08000000, 16 * 1024), (0x08020000, 896 * 1024)))
