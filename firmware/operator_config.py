# The operator's signed configuration (issue 22.6). Under vlt the game set, the credit value and the
# jurisdiction itself change "only through the central control computer" (L-6, r. 3, s. 7): here,
# only through a configuration the operator signs. It is one JSON file and its signature beside it:
#
#   operator.json      {"format": "jeton-operator-config/1", "config": N, "machine": "JTN-...",
#                       "JURISDICTION": "vlt", "DENOM_CENTS": 25, "GAMES": ["sept-royal-87"]}
#   operator.json.sig  RSASSA-PKCS1-v1_5 / SHA-256 over the file's exact bytes (rng/crypto/rsa.py),
#                      by the operator's key, whose public half the signed release carries
#                      (jeton_key.OPERATOR, tools/firmware.py)
#
# N is the configuration number: the board keeps the highest accepted in its "config" floor
# (board.floor, apart from the NVRAM part), and an older configuration is never taken again. The
# file names its machine (config.MACHINE_ID): one signed for another machine is refused. Where
# there is a signed configuration, the settings file and the command line may not contradict it.
# tools/operator.py writes and signs one; later a central system delivers them (over SAS): check()
# is the function it calls.
import hashlib

from firmware import strictjson
from rng.crypto import rsa

FILE = "operator.json"
SIG_SUFFIX = ".sig"
FORMAT = "jeton-operator-config/1"
PROTECTED = ("JURISDICTION", "DENOM_CENTS", "GAMES")  # what only the operator's signature changes under vlt
SIGNED = "vlt"  # the profile whose configuration must be signed (firmware/jurisdiction.py)
MAX_FILE = 2048  # a configuration is a few hundred bytes (16 game ids at most)
MAX_NUMBER = 999999999
_KEYS = ("format", "config", "machine") + PROTECTED


def read(path):
    """(the file's bytes, its signature's bytes, problem): (None, None, None) when there is no
    configuration; a signature missing or a file too large is a problem naming it."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE + 1)
    except OSError:
        return None, None, None
    if len(raw) > MAX_FILE:
        return None, None, "%s: larger than %d bytes" % (path, MAX_FILE)
    try:
        with open(path + SIG_SUFFIX, "rb") as f:
            sig = f.read(1025)
    except OSError:
        return raw, None, "%s%s: missing (the operator's configuration is not signed)" % (path, SIG_SUFFIX)
    return raw, sig, None


def parse(raw):
    """The fields of a configuration's bytes ({name: value}, GAMES a tuple), or ValueError naming
    what is wrong. The signature is not checked here (verify)."""
    try:
        d = strictjson.loads(raw)
    except ValueError as e:
        raise ValueError("not JSON: %s" % e)
    if not isinstance(d, dict):
        raise ValueError("not one JSON object")
    for name in d:
        if name not in _KEYS:
            raise ValueError("unknown field %s" % name)
    for name in _KEYS:
        if name not in d:
            raise ValueError("no %s" % name)
    if d["format"] != FORMAT:
        raise ValueError("format is not %s" % FORMAT)
    n = d["config"]
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_NUMBER:
        raise ValueError("config must be a number from 1 to %d" % MAX_NUMBER)
    if not isinstance(d["machine"], str) or not isinstance(d["GAMES"], list):
        raise ValueError("machine must be a text and GAMES a list")
    d["GAMES"] = tuple(d["GAMES"])  # as firmware/settings.py gives it
    return d


def verify(key, raw, sig):
    """True when sig is the operator's signature of raw (key: (modulus bytes, exponent))."""
    return rsa.verify(key[0], key[1], hashlib.sha256(raw).digest(), sig)


def check(path, raw, sig, key, machine_id, floor):
    """The operator's configuration as the cabinet may take it: (fields, None), or (None, problem)
    naming the file and the fault. key None: the code is not a signed image (no operator key to
    check with; the software is NOT VERIFIED as a whole): the signature is not checked. floor: the
    highest configuration number accepted here (None: none yet)."""
    if key is not None and not verify(key, raw, sig):
        return None, "%s: not signed by the operator's key" % path
    try:
        d = parse(raw)
    except ValueError as e:
        return None, "%s: %s" % (path, e)
    if d["machine"] != machine_id:
        return None, "%s: for machine %s, not this one (%s)" % (path, d["machine"][:24], machine_id)
    if floor is not None and d["config"] < floor:
        return None, "%s: configuration %d is older than number %d, accepted here (never taken again)" % (
            path, d["config"], floor)
    return d, None


def contradictions(fields, overrides):
    """Problems where the settings file or the command line (overrides) give a protected setting
    another value than the operator's signed configuration."""
    out = []
    for name in PROTECTED:
        if name in overrides and overrides[name] != fields[name]:
            out.append("%s: the operator's signed configuration says %s; the settings file or the command line "
                       "may not change it" % (name, _show(fields[name])))
    return out


def _show(v):
    if isinstance(v, tuple):
        return ",".join(v)[:40]
    return str(v)
