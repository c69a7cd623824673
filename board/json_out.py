# JSON written without its whole text in one string (the ledger, the console, the emulated display).
# json.dumps builds the text as one string and .encode() copies it: two pieces of the text's size, in
# a heap that after hours of play may have 20 KB free and no piece of 800 bytes (the ledger's state,
# about 2 KB, at a door's event on the 128K board heap: "out of memory: restarting the cabinet from
# critical memory"). json.dump writes the text piece by piece to a stream: here each piece is copied
# into a buffer allocated once.
import io
import json


class JsonOut(io.IOBase):
    """json.dump's stream. Without a sink, the buffer holds the whole text (dumps); with one (a
    port's write), each time the buffer is full it goes to the sink, and flush() sends the rest."""

    def __init__(self, size, sink=None):
        self.buf = bytearray(size)
        self.n = 0
        self.sink = sink

    def write(self, piece):
        if isinstance(piece, str):  # CPython's json writes str, MicroPython's bytes
            piece = piece.encode()
        k = len(piece)
        if self.sink is not None and self.n + k > len(self.buf):
            self.flush()
            if k > len(self.buf):  # one piece longer than the buffer (a long string): as it is
                self.sink(piece)
                return k
        end = self.n + k
        if end <= len(self.buf):
            self.buf[self.n:end] = piece
        self.n = end  # counted past the buffer: dumps() sees the text did not fit
        return k

    def flush(self):
        if self.n and self.sink is not None:
            self.sink(memoryview(self.buf)[:self.n])
        self.n = 0

    def dumps(self, obj):
        """obj's JSON as a memoryview into the buffer (valid until the next call); when it does not
        fit, as bytes (whoever stores it then refuses a payload that long, as before)."""
        self.n = 0
        json.dump(obj, self)
        if self.n > len(self.buf):
            self.n = 0
            return json.dumps(obj).encode()
        return memoryview(self.buf)[:self.n]

    def send(self, obj):
        """obj's JSON into the sink, a buffer at a time."""
        json.dump(obj, self)
        self.flush()
