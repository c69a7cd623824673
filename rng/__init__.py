# Jeton RNG: the one public interface every outcome comes through.
#
#   src = rng.open_source(board.ENTROPY)    # raw noise source of the board (rng/sources.py)
#   gen = rng.open_generator(src, personalization=machine_id + powerup_counter)
#   rng.below(gen, n); rng.weighted(gen, w); rng.shuffle(gen, seq); rng.deal(gen, n, k)
#   gen.idle()                              # main loop, between games
#
# Pipeline: source -> SP 800-90B health tests (rng/health.py, rng/entropy.py) -> HMAC_DRBG
# SHA-256 (SP 800-90A, rng/hmac_drbg.py) -> gen.randbits(k) -> unbiased scaling (rng/scale.py).
#
# open_source(kind): kind is "emulated" (host os.urandom), "stm32" (pyb.rng), "esp32"
#   (os.urandom with RF on), "rp2040" (ROSC RANDOMBIT), "rp2350" (TRNG), "rp2" (by chip).
#
# open_generator(source, personalization=b"", prediction_resistance=False):
#   runs the DRBG known-answer self-test, the start-up health test over the first 1024 samples,
#   then instantiates HMAC_DRBG from 384 bits of (claimed) min-entropy of the source.
#   personalization: bytes, up to a few hundred; the firmware passes machine id + the power-up
#   counter read from NVRAM and incremented/committed BEFORE this call, so that no two power-ups
#   ever instantiate from the same personalization (a restart never repeats a sequence even if
#   the source were to repeat). It is not secret. The DRBG state is never saved to NVRAM.
#
# The generator:
#   gen.randbits(k) -> int in [0, 2**k)      (k >= 0)
#   gen.idle()      bounded background work: advances the DRBG one small request (so an outcome
#                   cannot be timed) or gathers part of a scheduled reseed. Call it every main-loop
#                   iteration while waiting between games; never during a game's draw sequence
#                   is fine either way, it only discards buffered output.
#   gen.reseed()    reseed now from the source (e.g. at door close / after audit).
#   gen.readinto(buf)  raw DRBG bytes (lab dumps, statistical batteries).
#   gen.failure     None, or the latched RngFailure.
#
# RngFailure(reason, detail): raised by open_generator, randbits, idle, reseed, readinto whenever
#   the RNG refuses to produce: health test failure ("rct", "apt"), start-up test failure
#   ("startup"), dead or stuck hardware ("source_timeout", "source_error", "source_off"), DRBG
#   self-test ("drbg_selftest"). e.reason is the machine-readable code. After one failure the
#   generator raises the same failure on every call until power-cycled: no output, no fallback.
#   The firmware must catch it, tilt (play unavailable), record e.reason, void the wager in play.
#
# Games see only the scaling functions and a generator object.
#
# Imported on first use, in the function that needs them, not at the top of a module: each stays
# off the heap until then (a frozen module's code is in flash; what an import costs is its objects).
# tests/host/test_lazy_imports.py keeps this table true: every import in a function of this room
# names a module listed here, and a module of this room imports one at its top only if it is listed
# too (it is then lazy itself).
#   import rng.entropy    a cabinet's generator only (open_generator): games and the host's tools
#   import rng.generator  ... import rng for its scaling functions
#   import rng.selftest   power-up only; given back once the cabinet runs (firmware/main.py BOOT_ONLY)
#   import machine        a board's port only (rng/sources.py: its register window)
#   import pyb            the pyboard's port only: its hardware RNG
#   import network        the ESP32's port only: its radio, which makes os.urandom true random
from rng.failure import RngFailure  # noqa: F401  (public API)
from rng.scale import below, deal, shuffle, weighted  # noqa: F401
from rng.sources import open_source  # noqa: F401


def open_generator(source, personalization=b"", prediction_resistance=False):
    from rng.entropy import EntropyInput
    from rng.generator import instantiate
    from rng.selftest import drbg_selftest

    drbg_selftest()
    return instantiate(EntropyInput(source), personalization, prediction_resistance)
