# The one exception the RNG raises when it refuses to produce. The firmware catches it, tilts the
# cabinet (play unavailable) and records `reason` in the event log. There is never a fallback.


class RngFailure(Exception):
    """The RNG refuses to produce output.

    reason: short machine-readable code, one of
      "rct"            Repetition Count Test failed (SP 800-90B 4.4.1): source stuck
      "apt"            Adaptive Proportion Test failed (SP 800-90B 4.4.2): source biased
      "startup"        a health test failed during the start-up test of the first samples
      "source_timeout" the hardware gave no data (pyb.rng() zeros, TRNG never valid)
      "source_error"   the hardware flagged an error (seed/clock error, TRNG built-in tests)
      "source_off"     the source cannot produce entropy now (ESP32 with RF off)
      "drbg_selftest"  the DRBG known-answer self-test failed
      "reseed_required" a deterministic DRBG reached its reseed interval (no source to reseed from)
    detail: free text for the event log.
    Once raised, the generator stays failed: every later call raises the same failure.
    """

    def __init__(self, reason, detail=""):
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail

    def __str__(self):
        return "RNG failure: %s %s" % (self.reason, self.detail)
