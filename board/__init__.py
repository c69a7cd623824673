# Board: the hardware abstraction (hal.py), the drivers and the board profiles (docs/drivers.md).
#
# Imported on first use, in the function that needs them, not at the top of a module: each stays
# off the heap until then (a frozen module's code is in flash; what an import costs is its objects).
# tests/host/test_lazy_imports.py keeps this table true: every import in a function of this room
# names a module listed here, and a module of this room imports one at its top only if it is listed
# too (it is then lazy itself).
#   import board.nvram_fram   machine_board: a real board's FRAM, opened by its profile
#   import board.flash_image  machine_board: the program read back (the boot check, `verify SEED`)
#   import board.state_lock   emulated: given back after power-up (firmware/main.py BOOT_ONLY)
#   import esp32              an ESP32's port only: its running partition
#   import uctypes            a board's port only: its memory-mapped flash
# Bound in the function that uses it, though loaded anyway (a global of a module that stays costs heap):
#   bound sys
