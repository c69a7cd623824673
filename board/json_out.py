# JSON written without its whole text in one string (the ledger, the console, the emulated display).
# json.dumps builds the text as one string and .encode() copies it: two pieces of the text's size, in
# a heap that after hours of play may have 20 KB free and no piece of 600 bytes (a game's recall
# record on the 128K board heap, an aurore-93 walk: "out of memory: restarting the cabinet from
# critical memory"). json.dump writes the text piece by piece to a stream: here each piece is copied
# into a buffer: one allocated once, or a window of another (the critical memory's journal, where
# the ledger's blocks are built in place: firmware/critmem.py commit), through MicroPython's own
# preallocated BytesIO when given one (native).
import io
import json


class JsonOut(io.IOBase):
    """json.dump's stream. With a sink (a port's write), each time the buffer is full it goes to the
    sink, and flush() sends the rest. into() writes a text into a window of the caller's buffer."""

    def __init__(self, size, sink=None, native=0):
        self.buf = bytearray(size)
        self.at = 0  # the window being written: buf[at:end]
        self.end = size
        self.n = 0
        self.sink = sink
        self._native = None
        self.native(native)

    def native(self, size):
        """Write through MicroPython's BytesIO(size), preallocated: json.dump writes into it with no
        Python call per piece (the text was three quarters of a commit's Cortex-M3 instructions:
        tools/bench/bench_sas_arm.py), and into() copies it into the caller's window. 0 gives its
        piece back (the enrolment's RSA check needs the room); where it finds none, or on CPython,
        write() does the work, slower, the same bytes."""
        self._native = None
        if size:
            try:
                self._native = io.BytesIO(size)
            except (TypeError, MemoryError):  # CPython's BytesIO takes initial bytes (its json writes str)
                pass

    def write(self, piece):
        if isinstance(piece, str):  # CPython's json writes str, MicroPython's bytes
            piece = piece.encode()
        k = len(piece)
        room = self.end - self.at
        if self.sink is not None and self.n + k > room:
            self.flush()
            if k > room:  # one piece longer than the buffer (a long string): as it is
                self.sink(piece)
                return k
        end = self.n + k
        if end <= room:
            s = self.at + self.n
            self.buf[s:s + k] = piece
        self.n = end  # counted past the window: into() tells the text did not fit
        return k

    def flush(self):
        if self.n and self.sink is not None:
            self.sink(memoryview(self.buf)[:self.n])
        self.n = 0

    def into(self, obj, buf, at, end):
        """obj's JSON written into buf from at, never past end; returns its length, which is more
        than end - at when it did not fit (then what buf holds there is no text)."""
        f = self._native
        if f is not None:
            f.seek(0)
            json.dump(obj, f)
            n = f.tell()  # what is past it is an earlier, longer text's: not read
            if n <= end - at:
                f.seek(0)
                f.readinto(memoryview(buf)[at:at + n])
            return n
        own = self.buf, self.at, self.end
        self.buf, self.at, self.end, self.n = buf, at, end, 0
        try:
            json.dump(obj, self)
            return self.n
        finally:
            self.buf, self.at, self.end = own
            self.n = 0

    def send(self, obj):
        """obj's JSON into the sink, a buffer at a time."""
        json.dump(obj, self)
        self.flush()
