# The Cortex-M3 under qemu (make firmware-arm: ports/qemu, board MPS2_AN385): a board's image with no
# pin map yet (docs/build.md "The emulated Cortex-M3"); bench_arm, the rng/games device tests and
# board/flash_image.py's reading of its own flash run on it.
include("machine_board.py")
