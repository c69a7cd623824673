# Power-up authentication of the software (GLI-11 program verification): before any game is
# offered, the release manifest SHA256SUMS must carry a valid signature by the release key built
# into the image, and every file of the program the cabinet can read must have the digest the
# manifest gives it: the firmware image (read back through board.image()), and each offered game's
# model and certificate under its own id (models/<id>.json, certs/<id>.json), which binds the
# configured game to its certified files. The release number in the manifest may never go back
# (anti-rollback, kept in critical memory).
import binascii
import hashlib
import os

from firmware.image_hmac import feed
from rng.crypto import rsa

SUMS = "SHA256SUMS"
SIG = "SHA256SUMS.sig"
HEADER = b"# jeton-release "
MAX_COUNTER = 999999999  # MAJOR.MINOR.PATCH, each 0-999 (tools/release.py): the state block's bound


class SoftwareError(Exception):
    """The software does not authenticate; the message names the file."""


def builtin_key():
    """(modulus bytes, exponent, development?) of the release key frozen into the image, or None
    when the code does not come from a firmware image (the stock interpreter on .mpy or source)."""
    try:
        import jeton_key
    except ImportError:
        return None
    return jeton_key.N, jeton_key.E, jeton_key.DEV


def builtin_operator():
    """(modulus bytes, exponent) of the operator's public key frozen into the image beside the
    release key (tools/firmware.py): whose signature the cabinet takes for its configuration
    (firmware/operator_config.py) and for an enrolment (firmware/enrolment.py). None without one."""
    try:
        import jeton_key
    except ImportError:
        return None
    return getattr(jeton_key, "OPERATOR", None)


def _hex(h):
    return binascii.hexlify(h.digest())


def read_manifest(open_file, key, wanted, prefix=None):
    """Read SHA256SUMS in one pass, hashing every byte as it is parsed: ({path: digest hex bytes}
    for each path in `wanted` or under `prefix`, version, counter). SoftwareError unless its
    signature verifies."""
    h = hashlib.sha256()
    found = {}
    version = None
    counter = None
    try:
        f = open_file(SUMS)
    except OSError:
        raise SoftwareError("%s: missing" % SUMS)
    try:
        first = True
        while True:
            line = f.readline()
            if not line:
                break
            h.update(line)
            if first and line.startswith(HEADER):
                for field in line[len(HEADER):].decode().split():
                    if field.startswith("version="):
                        version = field[8:]
                    elif field.startswith("counter=") and field[8:].isdigit():
                        counter = int(field[8:])
            else:
                path = line[66:].rstrip(b"\n").decode()
                if line[64:66] == b"  " and (path in wanted or (prefix and path.startswith(prefix))):
                    found[path] = line[:64]
            first = False
    finally:
        f.close()
    try:
        with open_file(SIG) as f:
            sig = f.read()
    except OSError:
        raise SoftwareError("%s: missing (an unsigned release)" % SIG)
    if not rsa.verify(key[0], key[1], h.digest(), sig):
        raise SoftwareError("%s: not a signature of %s by the release key" % (SIG, SUMS))
    if version is None or counter is None or counter > MAX_COUNTER:
        raise SoftwareError("%s: no release number" % SUMS)
    return found, version, counter


def _check_file(found, name, reader):
    """The file `name` of the manifest against what `reader()` opens (OSError when it cannot)."""
    want = found.get(name)
    if want is None:
        raise SoftwareError("%s: not in the signed manifest" % name)
    h = hashlib.sha256()
    try:
        feed(reader(), h)
    except OSError:
        raise SoftwareError("%s: listed in %s, missing" % (name, SUMS))
    if _hex(h) != want:
        raise SoftwareError("%s: SHA-256 differs from the signed manifest" % name)


def check(board, key, games, models_dir, certs_dir, last_counter, code_dir=None):
    """Authenticate the release the cabinet runs: (version, counter) when every check passes;
    SoftwareError naming the first file that does not. `last_counter`: the highest release number
    that ran on this machine (critical memory), or None when unknown. `code_dir`: the folder of the
    .mpy files the code was loaded from (a board installed by `make deploy`), whose manifest sits in
    it and lists each as mpy/<path>: every one must be listed and match, none listed may be missing;
    None: the code is in the firmware image, which is checked whole."""
    files = []
    if code_dir is None:
        image = getattr(board, "IMAGE", None)  # the image's name in the manifest; None: not readable
        if image:
            files.append((image, board.image))
        open_file = board.release_file
    else:
        open_file = _in(code_dir)
    for gid in games:
        files.append(("models/%s.json" % gid, _opener("%s/%s.json" % (models_dir, gid))))
        files.append(("certs/%s.json" % gid, _opener("%s/%s.json" % (certs_dir, gid))))
    wanted = set(name for name, _ in files)
    found, version, counter = read_manifest(open_file, key, wanted, None if code_dir is None else "mpy/")
    if last_counter is not None and counter < last_counter:
        raise SoftwareError("%s: release %s (number %d) is older than number %d, which ran here" % (
            SUMS, version, counter, last_counter))
    for name, reader in files:
        _check_file(found, name, reader)
    if code_dir is not None:
        _check_code(found, code_dir)
    return version, counter


def _check_code(found, code_dir):
    seen = set()
    for rel in _mpy_files(code_dir, ""):
        name = "mpy/" + rel
        _check_file(found, name, _opener(code_dir + rel))
        seen.add(name)
    for name in sorted(found):
        if name.startswith("mpy/") and name not in seen:
            raise SoftwareError("%s: listed in %s, missing" % (name, SUMS))


def _mpy_files(base, rel):
    """Every .mpy under base + rel, as paths relative to base, sorted (a deterministic first fault)."""
    out = []
    for name in sorted(os.listdir(base + rel if base + rel else ".")):
        path = rel + name
        if name.endswith(".mpy"):
            out.append(path)
        elif "." not in name and _is_dir(base + path):
            out += _mpy_files(base, path + "/")
    return out


def _is_dir(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0  # S_IFDIR, on both runtimes
    except OSError:
        return False


def _in(folder):
    return lambda name: open(folder + name, "rb")


def _opener(path):
    return lambda: open(path, "rb")
