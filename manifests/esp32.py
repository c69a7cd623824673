# ESP32 DevKitC: make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=$JETON/manifests/esp32.py
# (docs/build.md "A board build"): the machine-module board and this board's pin map, board/esp32.py.
include("machine_board.py")
package("board", base_path="..", files=("esp32.py",))
