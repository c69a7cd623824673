# The maintenance console on a fake UART, for the device tests that drive firmware.console.Console
# (both runtimes): bytes typed in, the replies read back.


class Uart:
    """A UART whose rx holds the bytes typed and tx collects what the console wrote."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        buf[:n] = self.rx[:n]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        self.tx += data
        return len(data)


def run(con, line):
    """Type a line on the console; the reply lines before the prompt."""
    con.uart.rx += line.encode() + b"\r"
    con.service()
    out = bytes(con.uart.tx).decode()
    con.uart.tx = bytearray()
    assert out.endswith("jeton> ")
    return [s for s in out[:-len("jeton> ")].split("\r\n") if s]
