# Pyboard v1.1 (STM32F405): make -C ports/stm32 BOARD=PYBV11 FROZEN_MANIFEST=$JETON/manifests/pyboard.py
# (docs/build.md "A board build"): the machine-module board and this board's pin map, board/pyboard.py.
include("machine_board.py")
package("board", base_path="..", files=("pyboard.py",))
