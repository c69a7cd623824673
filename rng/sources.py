# Raw noise sources, one per board kind. Each has readinto(buf) -> fills buf with raw samples, one
# sample per byte (binary sources give 0/1 bytes), plus the claim its health tests are cut for:
#   SAMPLE_BITS  8 or 1
#   H            claimed min-entropy per sample as a fraction (num, den), bits
# Nothing here is used as output directly: rng.entropy health-tests every sample and feeds the
# HMAC_DRBG (rng.hmac_drbg), which conditions it. MicroPython's `random` module (Yasmarang, 32-bit
# state) is never an outcome source and is not imported anywhere in rng/.
# Hardware access is injectable (rng_fn / mem32 / urandom) so the fault paths run in CI.
import os
import sys

from rng.failure import RngFailure

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


def _machine_mem32():
    import machine  # only on a board: the register window the drivers read

    return machine.mem32


class HostUrandom:
    """Emulated board: the host kernel's CSPRNG through os.urandom (CPython and the unix port).

    Not a physical noise source: it is already a conditioned DRBG output. The claim (7 bits per
    byte) is deliberately below its 8 so the health tests stay meaningful for fault injection: the
    emulated board passes its own urandom (board/emulated.py EntropyWire), which the host can make
    stuck, and a stuck value trips the repetition count test after 7 samples (rng/health.py CUTOFFS).
    """

    NAME = "emulated"
    SAMPLE_BITS = 8
    H = (7, 1)

    def __init__(self, urandom=None):
        self._urandom = urandom or os.urandom

    def readinto(self, buf):
        n = len(buf)
        buf[:] = self._urandom(n)
        return n


# STM32F4 RNG peripheral (RM0090 section 24): status register bits MicroPython's driver ignores.
_STM32F4_RNG_SR = const(0x50060804)
_SR_DRDY = const(0x01)
_SR_ERRORS = const(0x66)  # CECS | SECS | CEIS | SEIS: clock error, seed error (current/sticky)


class Stm32Rng:
    """STM32 hardware RNG through pyb.rng() (analog ring oscillators + LFSR post-processing).

    MicroPython's driver waits 10 ms for DRDY and then returns 0, and never looks at the seed or
    clock error flags: a dead RNG reads as a stream of zeros. So: a zero word is not a sample
    (skipped); two zero words in a row raise source_timeout (a genuine 30-bit zero pair has
    probability 2**-60); the error flags are read directly when the status register is known.
    Each 30-bit word gives 3 samples (its low 24 bits). ST states no SP 800-90B min-entropy for the
    F4 RNG; the claim is 4 bits per 8-bit sample.
    """

    NAME = "stm32"
    SAMPLE_BITS = 8
    H = (4, 1)

    def __init__(self, rng_fn=None, mem32=None, sr_addr=_STM32F4_RNG_SR):
        if rng_fn is None:
            import pyb  # only on the board

            rng_fn = pyb.rng
        if mem32 is None and sr_addr is not None and sys.platform == "pyboard":
            mem32 = _machine_mem32()
        self._rng = rng_fn
        self._mem32 = mem32
        self._sr = sr_addr

    def readinto(self, buf):
        n = len(buf)
        rng = self._rng
        i = 0
        zeros = 0
        while i < n:
            w = rng()
            if self._mem32 is not None and self._mem32[self._sr] & _SR_ERRORS:
                raise RngFailure("source_error", "STM32 RNG SR=%08x" % self._mem32[self._sr])
            if w == 0:
                zeros += 1
                if zeros >= 2:
                    raise RngFailure("source_timeout", "pyb.rng() returned 0 twice")
                continue
            zeros = 0
            for _ in range(3):
                if i < n:
                    buf[i] = w & 0xFF
                    w >>= 8
                    i += 1
        return n


def _rf_on_default():
    # ESP32: esp_random() is a true RNG only while Wi-Fi/BT RF (or the boot-time SAR ADC source)
    # is on; starting the STA interface starts the RF subsystem without connecting anywhere.
    import network

    wlan = network.WLAN(network.STA_IF)
    if not wlan.active():
        wlan.active(True)
    return wlan.active()


class Esp32Urandom:
    """ESP32 os.urandom (esp_fill_random: the RNG register, fed by RF/ADC noise).

    With RF and the SAR ADC source both off the register output is only pseudo-random and no
    statistical test can tell: so before every read the RF must be on (rf_on() true), otherwise
    source_off. Claim: 2 bits per byte.
    """

    NAME = "esp32"
    SAMPLE_BITS = 8
    H = (2, 1)

    def __init__(self, urandom=None, rf_on=None):
        self._urandom = urandom or os.urandom
        self._rf_on = rf_on or _rf_on_default

    def readinto(self, buf):
        if not self._rf_on():
            raise RngFailure("source_off", "ESP32 RF off: RNG not hardware-backed")
        n = len(buf)
        buf[:] = self._urandom(n)
        return n


_ROSC_RANDOMBIT = const(0x4006001C)  # RP2040 ROSC RANDOMBIT register (datasheet 2.17.8)


class Rp2040Rosc:
    """RP2040 ring oscillator RANDOMBIT, one raw bit per sample.

    The datasheet warns it is not suitable for security on its own (bits are biased and
    correlated depending on how the ROSC and clk_sys frequencies relate): we only ever use it
    health-tested and conditioned by the HMAC_DRBG, claiming 0.5 bit of min-entropy per bit, a
    claim the lab must confirm on raw dumps (SP 800-90B section 3) for each board design.
    """

    NAME = "rp2040"
    SAMPLE_BITS = 1
    H = (1, 2)

    def __init__(self, mem32=None):
        self._mem32 = mem32 if mem32 is not None else _machine_mem32()

    def readinto(self, buf):
        mem32 = self._mem32
        n = len(buf)
        for i in range(n):
            buf[i] = mem32[_ROSC_RANDOMBIT] & 1
        return n


# RP2350 TRNG (Arm TrustZone TRNG, datasheet 12.12) at 0x400F0000
_TRNG = const(0x400F0000)
_RNG_ISR = const(0x104)
_RNG_ICR = const(0x108)
_TRNG_VALID = const(0x110)
_EHR_DATA0 = const(0x114)  # six 32-bit words, 192 bits per collection
_RND_SOURCE_ENABLE = const(0x12C)
_ISR_ERRORS = const(0x0E)  # AUTOCORR_ERR | CRNGT_ERR | VN_ERR: the TRNG's built-in tests
_VALID_POLLS = const(100000)


class Rp2350Trng:
    """RP2350 TRNG: free-running ROSC sampled asynchronously, with the block's own autocorrelation,
    CRNGT and von Neumann checks left enabled (their error flags raise source_error). Our tests run
    on the EHR output bytes as a second layer. Claim: 4 bits per byte."""

    NAME = "rp2350"
    SAMPLE_BITS = 8
    H = (4, 1)

    def __init__(self, mem32=None):
        self._mem32 = mem32 if mem32 is not None else _machine_mem32()

    def readinto(self, buf):
        m = self._mem32
        n = len(buf)
        m[_TRNG + _RND_SOURCE_ENABLE] = 1
        i = 0
        while i < n:
            polls = 0
            while not m[_TRNG + _TRNG_VALID] & 1:
                polls += 1
                if polls >= _VALID_POLLS:
                    raise RngFailure("source_timeout", "RP2350 TRNG never valid")
            isr = m[_TRNG + _RNG_ISR]
            if isr & _ISR_ERRORS:
                m[_TRNG + _RNG_ICR] = 0xFFFFFFFF
                raise RngFailure("source_error", "RP2350 TRNG ISR=%08x" % isr)
            for w in range(6):
                word = m[_TRNG + _EHR_DATA0 + 4 * w]  # reading EHR_DATA5 restarts collection
                for _ in range(4):
                    if i < n:
                        buf[i] = word & 0xFF
                        word >>= 8
                        i += 1
            m[_TRNG + _RNG_ICR] = 0xFFFFFFFF
        return n


def _is_rp2350():
    return "RP2350" in getattr(sys.implementation, "_machine", "")


def open_source(kind, urandom=None):
    """Raw entropy source for a board kind: "emulated", "stm32", "esp32", "rp2040", "rp2350", or
    "rp2" (the chip decides: the RP2350 TRNG on an RP2350, the ROSC on an RP2040). urandom: the
    emulated board's noise function (urandom(n) -> n bytes), os.urandom when None."""
    if kind == "emulated":
        return HostUrandom(urandom)
    if kind == "stm32":
        return Stm32Rng()
    if kind == "esp32":
        return Esp32Urandom()
    if kind == "rp2040":
        return Rp2040Rosc()
    if kind == "rp2350":
        return Rp2350Trng()
    if kind == "rp2":
        return Rp2350Trng() if _is_rp2350() else Rp2040Rosc()
    raise ValueError("no entropy source for board kind %r" % kind)
