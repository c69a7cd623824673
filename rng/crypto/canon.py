# Canonical serialisation of a model for hashing: the same bytes under CPython and MicroPython.
# json.dumps differs between the two (key order, escaping, no sort_keys on MicroPython), so the
# certificate's math hash is computed over this form instead: keys sorted, no spaces, ASCII only
# (byte for byte what CPython's json.dumps(sort_keys=True, separators=(',', ':')) gives).
import hashlib

_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _str(s, out):
    for c in s.encode():  # bytes: iterating them allocates nothing
        if c < 0x20 or c > 0x7E or c == 34 or c == 92:
            break
    else:  # nothing to escape (nearly every key and symbol name): one piece, not one per character
        out.append('"')
        out.append(s)
        out.append('"')
        return
    out.append('"')
    for ch in s:
        e = _ESC.get(ch)
        if e is not None:
            out.append(e)
            continue
        c = ord(ch)
        if c < 0x20 or c > 0x7E:  # DEL too, as CPython's ensure_ascii does
            if c > 0xFFFF:
                raise ValueError("canon: only BMP characters")
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')


def _emit(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        _str(v, out)
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _emit(x, out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        for i, k in enumerate(sorted(v)):
            if not isinstance(k, str):
                raise ValueError("canon: keys must be strings")
            if i:
                out.append(",")
            _str(k, out)
            out.append(":")
            _emit(v[k], out)
        out.append("}")
    else:
        # floats are refused: probabilities and money are integers in a model
        raise ValueError("canon: unsupported value %r" % (v,))


class _Sink:
    # list-like: pieces are hashed every 64 appends, so a 20 KB model never sits in the heap twice
    def __init__(self, h):
        self.h = h
        self.buf = []

    def append(self, s):
        self.buf.append(s)
        if len(self.buf) >= 64:
            self.flush()

    def flush(self):
        self.h.update("".join(self.buf).encode())
        self.buf = []


def canonical(v):
    """bytes of the canonical form of a JSON-like value."""
    out = []
    _emit(v, out)
    return "".join(out).encode()


def sha256(v):
    """SHA-256 digest (bytes) of canonical(v), hashed as it is produced: never whole in the heap."""
    sink = _Sink(hashlib.sha256())
    _emit(v, sink)
    sink.flush()
    return sink.h.digest()


def math_hash(model):
    """Hex SHA-256 of the canonical model (every field: math and player-facing text alike)."""
    return "".join("%02x" % b for b in sha256(model))
