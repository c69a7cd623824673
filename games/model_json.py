# The model file reader: strict JSON (RFC 8259) with stated bounds, one verdict on every runtime.
# The boot check (games/certificate.py) and the host tools (tools.certify, tools.par) read models
# through it, so a file the device refuses is refused on the host with the same words. Why not the
# json modules: MicroPython's takes '{"a":1 "b":2}' and trailing commas; both keep the last of two
# equal keys without a word ("3": 5, "3": 7 certified the later); a 100,000-deep array exhausts a
# board's heap (MicroPython) or the stack (CPython's RecursionError); a model holds integers only,
# and a 400-digit one is refused here rather than in a float conversion later.
# Errors name where they are: 'pays[0].pays: duplicate key "3" at byte 812'.
from games.limits import ModelError, quote

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MAX_BYTES = const(16384)  # a model file (the largest shipped one is 8.7 KB)
MAX_DEPTH = const(8)  # arrays and objects nested (a model nests 5 deep: free_spins.reels[0].strip)
MAX_DIGITS = const(9)  # an integer's digits: below 10**9, a small int on a 32-bit board
MAX_STRING = const(1024)  # bytes of one string (the longest citation of a reference model: 438)
_SHARE = const(24)  # array items this short (symbol names, hold patterns) are interned: see string()
_CHUNK = const(256)  # bytes read at a time
# the one-letter escapes and what they stand for (literals: in flash on a board, no dict in the heap)
_ESC_IN = b'"\\/bfnrt'
_ESC_OUT = b'"\\/\b\f\n\r\t'


class ReadError(ModelError):
    pass


def read(path):
    """The value of the model file at path (a dict for a model); ReadError naming the fault."""
    with open(path, "rb") as f:
        f.seek(0, 2)
        size = f.tell()
        if size > MAX_BYTES:
            raise ReadError("file of %d bytes, larger than %d (model_json.MAX_BYTES)" % (size, MAX_BYTES))
        f.seek(0)
        return _read(f)


def loads(data):
    """The value of one JSON text (bytes or str) under the same rules."""
    from io import BytesIO

    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_BYTES:
        raise ReadError("text of %d bytes, longer than %d (model_json.MAX_BYTES)" % (len(data), MAX_BYTES))
    return _read(BytesIO(data))


def _read(f):
    r = _Reader(f)
    try:
        v = r.value(0)
        if r.more():
            r.fail("text after the end")
    except ReadError as e:
        path, what = e.args
        raise ReadError(path + ": " + what if path else what)
    return v


def _inside(e, part):
    # the path of a fault one level up: 'strip' + '[5]', 'reels' + '.strip', '[2]' + ''
    path, what = e.args
    if path and path[0] != "[":
        path = "." + path
    return ReadError(part + path, what)


class _Reader:
    # reads the file through one small buffer: never the whole file in one block of the heap (a
    # board's heap may have no 8 KB in one piece when the boot check runs)
    def __init__(self, f):
        self.f = f
        self.buf = bytearray(_CHUNK)
        self.n = 0  # bytes in buf
        self.i = 0  # next byte of buf
        self.at = 0  # file offset of buf[0]

    def fail(self, what):
        raise ReadError("", "%s at byte %d" % (what, self.at + self.i))

    def _fill(self):
        # the next chunk; False at the end of the file
        self.at += self.n
        self.n = self.f.readinto(self.buf) or 0
        self.i = 0
        return self.n > 0

    def more(self):
        # past the white space: True when a byte follows
        while True:
            b = self.buf
            i = self.i
            n = self.n
            while i < n:
                c = b[i]
                if c != 0x20 and c != 0x0A and c != 0x0D and c != 0x09:
                    self.i = i
                    return True
                i += 1
            self.i = i
            if not self._fill():
                return False

    def peek(self):
        if not self.more():
            self.fail("unexpected end")
        return self.buf[self.i]

    def take(self):
        # the next byte of the file, or -1 at its end (no white space skipped)
        if self.i >= self.n and not self._fill():
            return -1
        c = self.buf[self.i]
        self.i += 1
        return c

    def value(self, depth, item=False):
        c = self.peek()
        if c == 0x7B or c == 0x5B:  # { [
            if depth >= MAX_DEPTH:
                self.fail("nested deeper than %d levels (model_json.MAX_DEPTH)" % MAX_DEPTH)
            return self.obj(depth + 1) if c == 0x7B else self.arr(depth + 1)
        if c == 0x22:
            return self.string(item)
        if c == 0x2D or 0x30 <= c <= 0x39:
            return self.number()
        for word, v in ((b"true", True), (b"false", False), (b"null", None)):
            if c == word[0]:
                for w in word:
                    c = self.take()
                    if c != w:
                        if c >= 0:
                            self.i -= 1
                        self.fail("unexpected byte")
                return v
        self.fail("unexpected byte %r" % chr(c))

    def obj(self, depth):
        d = {}
        k = None  # the member being read, for the path of a fault in its value
        try:
            more = self._open(0x7D)
            while more:
                k = None
                if self.peek() != 0x22:
                    self.fail("expected a key")
                at = self.at + self.i
                key = self.string()
                if key in d:
                    raise ReadError("", "duplicate key %s at byte %d" % (quote(key), at))
                k = key
                self.expect(0x3A)
                d[key] = self.value(depth)
                more = self._next(0x7D)
        except ReadError as e:
            if k is None:
                raise
            raise _inside(e, k)
        return d

    def arr(self, depth):
        out = []
        try:
            more = self._open(0x5D)
            while more:
                out.append(self.value(depth, True))
                more = self._next(0x5D)
        except ReadError as e:
            raise _inside(e, "[%d]" % len(out))
        return out

    def expect(self, c):
        if self.peek() != c:
            self.fail("expected '%s'" % chr(c))
        self.i += 1

    def _open(self, close):
        # past the opening bracket: False when the container closes at once (empty)
        self.i += 1
        if self.peek() == close:
            self.i += 1
            return False
        return True

    def _next(self, close):
        # after a member: True for another (a comma), False at the closing bracket
        c = self.peek()
        if c != close and c != 0x2C:
            self.fail("expected ',' or '%s'" % chr(close))
        self.i += 1
        return c != close

    def string(self, item=False):
        # item: an array's item. A 5x3 model names its symbols some 600 times in its strips and pay
        # groups, and a str object costs some 75 bytes of a board's heap: aurore-88 took 52 KB that
        # way. MicroPython's str() of bytes hands out the interned text (a qstr) when one exists, so
        # the short items are interned first (getattr interns its name on MicroPython; the lookup
        # itself is of no interest): a dozen names and a poker model's hold patterns, some hundred
        # bytes of permanent qstrs. Keys are left alone: the code that reads them names them.
        self.i += 1  # the opening quote
        raw = None  # the bytes so far when the string crosses a chunk or holds an escape
        while True:
            b = self.buf
            i = start = self.i
            n = self.n
            while i < n:
                c = b[i]
                if c == 0x22 or c == 0x5C or c < 0x20:
                    break
                i += 1
            if raw is None and i < n and c == 0x22:  # nearly every string: whole in the buffer
                raw = b[start:i]
            elif i > start:
                raw = b[start:i] if raw is None else raw + b[start:i]
            self.i = i
            if raw is not None and len(raw) > MAX_STRING:
                self.fail("string longer than %d bytes (model_json.MAX_STRING)" % MAX_STRING)
            if i >= n:
                if not self._fill():
                    self.fail("unterminated string")
                continue
            if c < 0x20:
                self.fail("control character in a string")
            self.i = i + 1
            if c == 0x22:
                break
            e = self.take()  # after a backslash
            k = _ESC_IN.find(bytes((e,))) if 0 < e < 0x80 else -1
            if e == 0x75:  # \uXXXX
                ch = self._unicode().encode()
            elif k >= 0:
                ch = _ESC_OUT[k:k + 1]
            else:
                if e >= 0:
                    self.i -= 1
                self.fail("bad escape")
            raw = ch if raw is None else raw + ch
        try:
            s = str(raw, "utf-8") if raw else ""
        except UnicodeError:
            self.fail("string not UTF-8")
        if item and len(raw) <= _SHARE:
            getattr(_Reader, s, None)
            s = str(raw, "utf-8")  # the interned one
        return s

    def _hex4(self):
        u = 0
        for _ in range(4):
            c = self.take()
            if 0x30 <= c <= 0x39:
                u = u * 16 + c - 0x30
            elif 0x41 <= c <= 0x46 or 0x61 <= c <= 0x66:
                u = u * 16 + (c | 0x20) - 0x57
            else:
                self.fail("bad \\u escape")
        return u

    def _unicode(self):
        u = self._hex4()
        if 0xD800 <= u < 0xDC00:  # a surrogate pair makes one character
            if self.take() != 0x5C or self.take() != 0x75:
                self.fail("lone surrogate")
            lo = self._hex4()
            if not 0xDC00 <= lo < 0xE000:
                self.fail("lone surrogate")
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
        elif 0xDC00 <= u < 0xE000:
            self.fail("lone surrogate")
        return chr(u)

    def number(self):
        at = self.at + self.i
        neg = self.buf[self.i] == 0x2D
        if neg:
            self.i += 1
        v = 0
        nd = 0
        first = -1
        while True:
            c = self.take()
            if not 0x30 <= c <= 0x39:
                break
            if first < 0:
                first = c
            nd += 1
            if nd <= MAX_DIGITS:
                v = v * 10 + c - 0x30
        if c >= 0:
            self.i -= 1
        if not nd:
            self.fail("bad number")
        if first == 0x30 and nd > 1:
            self.fail("number with a leading zero")
        if c == 0x2E or c == 0x45 or c == 0x65:  # . E e
            self.fail("number with a fraction or an exponent (a model holds integers only)")
        if nd > MAX_DIGITS:
            raise ReadError("", "integer of %d digits at byte %d (at most %d: model_json.MAX_DIGITS)" % (
                nd, at, MAX_DIGITS))
        return -v if neg else v
