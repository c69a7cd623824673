# Firmware: the cabinet (docs/firmware.md): boot, state table, books, critical memory, console.
#
# Imported on first use, in the function that needs them, not at the top of a module: each stays
# off the heap until then (a frozen module's code is in flash; what an import costs is its objects).
# tests/host/test_lazy_imports.py keeps this table true: every import in a function of this room
# names a module listed here, and a module of this room imports one at its top only if it is listed
# too (it is then lazy itself).
#   import firmware.startup          power-up only; given back once the cabinet runs (main.BOOT_ONLY)
#   import firmware.authenticate     the signed release at power-up, an enrolment's key (main.BOOT_ONLY)
#   import rng.crypto.rsa            signature checks: power-up, an enrolment (main.BOOT_ONLY)
#   import firmware.operator_config  settling the configuration at power-up (startup.SETTLE_ONLY)
#   import firmware.settings         settling the configuration at power-up (startup.SETTLE_ONLY)
#   import firmware.configuration    settling the configuration at power-up (startup.SETTLE_ONLY)
#   import firmware.coupon_system    a coupon cabinet (vlt) only: a casino cabinet never holds it
#   import firmware.coupon_store     a coupon cabinet only
#   import firmware.coupon_number    a coupon cabinet only
#   import firmware.coupon           a coupon cabinet only: the ticket's text
#   import firmware.console_coupons  a coupon cabinet's console commands only
#   import board.printer_epic        a coupon cabinet's printer only
#   import firmware.coupon_out       a coupon cabinet's money out only (startup.open_money_out)
#   import firmware.hopper_out       money out by hopper or by hand: a cabinet that is not a coupon one
#   import firmware.play_keno        a keno game's play only (play.for_game)
#   import firmware.play_poker       a video poker game's play only (play.for_game)
#   import firmware.play_table       a table game's play only (play.for_game)
#   import firmware.play_cards       a card-poker table game's play only (play.for_game)
#   import firmware.sas.progressive  a cabinet whose progressive is linked over SAS only
#   import firmware.bill_in          a jurisdiction that takes notes, or a ticket reader (casino TICKET_IN), only
#   import firmware.ticket_books     a ticket being redeemed through SAS only (a ticket reader's)
#   import board.bill_cctalk         a jurisdiction that takes notes only
#   import firmware.sas.machine      a board with a SAS line only: the link, after the boot check (startup.boot;
#                                    ... its exception queue, firmware.sas.exceptions, before it)
#   import firmware.sas.meter_codes  a SAS meter poll only (from the first one on)
#   import firmware.sas.rom_signature  a SAS long poll 21 only (from the first one on)
#   import firmware.sas.ticket_data  a SAS 7B, 7C or 7D to a coupon cabinet only (from the first one on)
#   import firmware.sas.system_validation  a SAS 57 or 58 to a coupon cabinet only (from the first one on)
#   (by name, at a poll of theirs: firmware.sas.control, meter_polls, games, tickets: polls.MODULES)
#   import board.meters_em           a board with meter coils only (startup.open_meters)
#   import board.hopper_cctalk       a cabinet that pays by hopper only (startup.open_money_out)
#   import board.coin_cctalk         after the game's boot check, the boot's peak (startup.boot): the
#   import firmware.coin_in          ... parts' code is not in the heap beside it (aurore-93 boots in
#   import firmware.console          ... 104K, not 120K: python -m tools.bench.bench_heap)
#   import firmware.screen           ... the same
#   import firmware.enrolment        making an administrator only; given back once one is made
#   import firmware.console_read     the reading commands; given back after each (console.READ_MODULES)
#   import firmware.localtime        the reading commands and the security listing (console.READ_MODULES)
#   import firmware.image_hmac       the console's `verify SEED` only (also main.BOOT_ONLY)
#   import firmware.fault_where      a command that ran out of memory only: where, in its reply
#   import io                        ... its reading of MicroPython's print_exception
#   import games.poker               a video poker game only: its card names
#   import board.emulated            firmware/main.py: the board of the platform, the emulated one or
#   import board.machine_board       ... a real board's, never both in an image (manifests/)
#   import board.state_lock          the emulated board's lock; given back after power-up (BOOT_ONLY)
#   import jeton_key                 a firmware image's only (tools/firmware.py), looked up when asked
#   import jeton_rom                 a firmware image's only: its models, mounted at power-up
#   import vfs                       a MicroPython port's only (mount_data)
# Bound in the function that uses it, though loaded at power-up anyway: a module that stays in the
# heap holds each of its top-level imports as a global, and these serve one command, a fault path or
# the entry point (firmware/main.py, run as a script from a checkout too, imports the rooms once its
# _add_root ran). Moved to the tops of their modules they took 130-160 bytes more (issue 24.5).
#   bound gc sys os binascii json firmware.config firmware.states firmware.tournament
#   bound firmware.play firmware.eventlog firmware.critmem board.compat
#   bound firmware.jurisdiction firmware.sas.exceptions firmware.sas.polls board.sas_link
