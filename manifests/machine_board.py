# What a board on MicroPython's `machine` module carries besides every board's part: the board over
# machine.Pin/UART/I2C (board/machine_board.py), its FRAM critical memory, its flash read back.
# Included by each real board's manifest (pyboard.py, rp2.py, esp32.py) and by qemu.py.
include("../manifest.py")
package("board", base_path="..", files=("machine_board.py", "nvram_fram.py", "flash_image.py"))
