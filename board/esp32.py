# ESP32 DevKitC wiring. Entropy: os.urandom, hardware-backed only while RF or the SAR ADC source
# is on (see rng/).
NAME = "esp32"
ENTROPY = "esp32"
UARTS = {"cctalk": (1, 9600, 17, 16), "console": (2, 115200, 4, 5)}
PINS = {
    "bet_one": 32, "bet_max": 33, "play": 25, "cashout": 26,
    "door_main": 27, "door_logic": 14, "door_cashbox": 12,
    "key_audit": 13, "key_reset": 15,
    "lamp_play": 18, "lamp_cashout": 19, "lamp_tower": 21, "lamp_bet": 22,
}
# Critical memory: a 128 KB I2C FRAM (e.g. MB85RC1MT: the ledger and the security log) on I2C0,
# GPIO23 SDA / GPIO2 SCL, address 0x50.
FRAM = {"i2c": 0, "scl": 2, "sda": 23, "addr": 0x50, "size": 131072, "freq": 400000}
# The firmware as stored (board.image()): the app partition it runs from, whole
# (esp32.Partition.RUNNING, read with readblocks).
IMAGE = ("firmware/firmware-esp32.bin", "running")
