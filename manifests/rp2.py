# Raspberry Pi Pico (RP2040/RP2350): make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=$JETON/manifests/rp2.py
# (docs/build.md "A board build"): the machine-module board and this board's pin map, board/rp2.py.
include("machine_board.py")
package("board", base_path="..", files=("rp2.py",))
