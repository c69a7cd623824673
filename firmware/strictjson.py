# Strict JSON (RFC 8259) for what an operator writes: the settings file. MicroPython's json module
# is lenient — it takes '{"a":1 "b":2}', '{"a"}' as {}, trailing commas, leading zeros and raw
# control characters — so a typo could silently change a setting, and the device and the host tools
# would read the same file differently. This parser takes exactly the grammar, the same way on
# every runtime, and says where it stopped. It works on bytes (indexing a str is not O(1) on
# MicroPython) and bounds the nesting, so a hostile file cannot exhaust a board's stack.
MAX_DEPTH = 8
_WS = b" \t\n\r"
_ESC = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n", 0x72: "\r", 0x74: "\t"}


class JsonError(ValueError):
    pass


def loads(text):
    b = text.encode() if isinstance(text, str) else bytes(text)
    p = _Parser(b)
    v = p.value(0)
    p.ws()
    if p.i != len(b):
        p.fail("text after the end")
    return v


class _Parser:
    def __init__(self, b):
        self.b = b
        self.i = 0

    def fail(self, what):
        raise JsonError("%s at byte %d" % (what, self.i))

    def ws(self):
        b = self.b
        while self.i < len(b) and b[self.i] in _WS:
            self.i += 1

    def peek(self):
        self.ws()
        if self.i >= len(self.b):
            self.fail("unexpected end")
        return self.b[self.i]

    def expect(self, c):
        if self.peek() != c:
            self.fail("expected '%s'" % chr(c))
        self.i += 1

    def value(self, depth):
        c = self.peek()
        if c in (0x7B, 0x5B) and depth >= MAX_DEPTH:
            self.fail("nested too deep")
        if c == 0x7B:  # {
            return self.obj(depth + 1)
        if c == 0x5B:  # [
            return self.arr(depth + 1)
        if c == 0x22:
            return self.string()
        if c == 0x2D or 0x30 <= c <= 0x39:
            return self.number()
        for word, v in ((b"true", True), (b"false", False), (b"null", None)):
            if self.b[self.i:self.i + len(word)] == word:
                self.i += len(word)
                return v
        self.fail("unexpected byte")

    def obj(self, depth):
        d = {}
        more = self._open(0x7D)
        while more:
            if self.peek() != 0x22:
                self.fail("expected a key")
            k = self.string()
            if k in d:
                self.fail("duplicate key")
            self.expect(0x3A)
            d[k] = self.value(depth)
            more = self._next(0x7D)
        return d

    def arr(self, depth):
        out = []
        more = self._open(0x5D)
        while more:
            out.append(self.value(depth))
            more = self._next(0x5D)
        return out

    def _open(self, close):
        """Past the opening bracket: False when the container closes at once (empty)."""
        self.i += 1
        if self.peek() == close:
            self.i += 1
            return False
        return True

    def _next(self, close):
        """After a member: True for another (a comma), False at the closing bracket."""
        c = self.peek()
        if c != close and c != 0x2C:
            self.fail("expected ',' or '%s'" % chr(close))
        self.i += 1
        return c != close

    def string(self):
        b = self.b
        self.i += 1
        parts = []
        start = self.i
        while True:
            if self.i >= len(b):
                self.fail("unterminated string")
            c = b[self.i]
            if c == 0x22:
                parts.append(self._utf8(b[start:self.i]))
                self.i += 1
                return "".join(parts)
            if c < 0x20:
                self.fail("control character in a string")
            if c == 0x5C:
                parts.append(self._utf8(b[start:self.i]))
                self.i += 1
                if self.i >= len(b):
                    self.fail("unterminated string")
                e = b[self.i]
                if e == 0x75:  # \uXXXX
                    parts.append(self._unicode())
                elif e in _ESC:
                    parts.append(_ESC[e])
                    self.i += 1
                else:
                    self.fail("bad escape")
                start = self.i
            else:
                self.i += 1

    def _hex4(self):
        h = self.b[self.i + 1:self.i + 5]
        if len(h) != 4 or not all(c in b"0123456789abcdefABCDEF" for c in h):
            self.fail("bad \\u escape")
        self.i += 5
        return int(h.decode(), 16)

    def _unicode(self):
        u = self._hex4()
        if 0xD800 <= u < 0xDC00:  # a surrogate pair makes one character
            if self.b[self.i:self.i + 2] != b"\\u":
                self.fail("lone surrogate")
            self.i += 1
            lo = self._hex4()
            if not 0xDC00 <= lo < 0xE000:
                self.fail("lone surrogate")
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
        elif 0xDC00 <= u < 0xE000:
            self.fail("lone surrogate")
        return chr(u)

    def _utf8(self, raw):
        try:
            return raw.decode()
        except UnicodeError:
            self.fail("not UTF-8")

    def number(self):
        b = self.b
        start = self.i
        if b[self.i] == 0x2D:
            self.i += 1
        if self.i < len(b) and b[self.i] == 0x30:
            self.i += 1
        elif self.i < len(b) and 0x31 <= b[self.i] <= 0x39:
            self._digits()
        else:
            self.fail("bad number")
        frac = False
        if self.i < len(b) and b[self.i] == 0x2E:
            self.i += 1
            if not self._digits():
                self.fail("bad number")
            frac = True
        if self.i < len(b) and b[self.i] in b"eE":
            self.i += 1
            if self.i < len(b) and b[self.i] in b"+-":
                self.i += 1
            if not self._digits():
                self.fail("bad number")
            frac = True
        text = b[start:self.i].decode()
        return float(text) if frac else int(text)

    def _digits(self):
        b = self.b
        n = 0
        while self.i < len(b) and 0x30 <= b[self.i] <= 0x39:
            self.i += 1
            n += 1
        if n > 40:
            self.fail("number too long")
        return n
