# DRBG known-answer self-test run before the generator is instantiated (SP 800-90A 11.3):
# NIST CAVP HMAC_DRBG SHA-256 [pr_false, personalization 256, additional input 256] COUNT 0, so one
# vector covers instantiate + personalization, reseed + additional input, generate + additional.
from binascii import unhexlify

from rng.failure import RngFailure
from rng.hmac_drbg import HmacDrbg

_VEC = (
    "cdb0d9117cc6dbc9ef9dcb06a97579841d72dc18b2d46a1cb61e314012bdf416",  # EntropyInput
    "d0c0d01d156016d0eb6b7e9c7c3c8da8",  # Nonce
    "6f0fb9eab3f9ea7ab0a719bfa879bf0aaed683307fda0c6d73ce018b6e34faaa",  # PersonalizationString
    "8ec6f7d5a8e2e88f43986f70b86e050d07c84b931bcf18e601c5a3eee3064c82",  # EntropyInputReseed
    "1ab4ca9014fa98a55938316de8ba5a68c629b0741bdd058c4d70c91cda5099b3",  # AdditionalInputReseed
    "16e2d0721b58d839a122852abd3bf2c942a31c84d82fca74211871880d7162ff",  # AdditionalInput 1
    "53686f042a7b087d5d2eca0d2a96de131f275ed7151189f7ca52deaa78b79fb2",  # AdditionalInput 2
)
_EXPECT = (
    "dda04a2ca7b8147af1548f5d086591ca4fd951a345ce52b3cd49d47e84aa31a1"
    "83e31fbc42a1ff1d95afec7143c8008c97bc2a9c091df0a763848391f68cb4a3"
    "66ad89857ac725a53b303ddea767be8dc5f605b1b95f6d24c9f06be65a973a08"
    "9320b3cc42569dcfd4b92b62a993785b0301b3fc452445656fce22664827b88f"
)


def drbg_selftest(cls=HmacDrbg):
    """Raise RngFailure("drbg_selftest") unless the DRBG reproduces the known answer."""
    e, n, p, er, ar, a1, a2 = [unhexlify(x) for x in _VEC]
    d = cls()
    d.instantiate(e, n, p)
    d.reseed(er, ar)
    out = bytearray(128)
    d.generate_into(out, a1)
    d.generate_into(out, a2)
    d.uninstantiate()
    if bytes(out) != unhexlify(_EXPECT):
        raise RngFailure("drbg_selftest", "HMAC_DRBG known answer mismatch")
