# The emulated board's image (make firmware: MicroPython's unix port, 32-bit): every board's part,
# and the emulated board, which maps a cabinet's wires onto loopback sockets (docs/architecture.md).
include("../manifest.py")
package("board", base_path="..", files=(
    "emulated.py", "nvram_file.py", "state_lock.py", "touch.py",
    # --profile pyboard|rp2|esp32: the emulated board with only that board's wires (their pin maps)
    "pyboard.py", "rp2.py", "esp32.py",
))
