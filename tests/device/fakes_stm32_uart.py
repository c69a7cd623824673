# machine.UART of MicroPython's stm32 port (the pyboard), as that port's source has it, for the device
# tests (CPython and MicroPython). Read from micropython/micropython ports/stm32/uart.c (uart_init,
# uart_irq_handler, uart_rx_char, uart_tx_data) and ports/stm32/machine_uart.c (the init helper,
# read, write); the stream layer from py/stream.c and extmod/machine_uart.c (readinto and write are
# one call of the port's read / write: MP_STREAM_RW_ONCE):
# - bits counts the parity bit (ST's convention): 7, 8 or 9 in all, else ValueError; bits=9 with
#   parity=None is the only 9-bit character (char_mask 0x1FF, CHAR_WIDTH_9BIT); 8 data bits and a
#   parity, or 8 or 7 bits without one, read 0xFF of the frame; 7 data bits and a parity 0x7F.
# - sizes are in bytes. A 9-bit character is a uint16_t in memory (`*(uint16_t *)buf = data`): the
#   Cortex-M4 is little-endian, so its low 8 bits first and the 9th bit as bit 0 of the second byte
#   (the other 7 bits 0). A read or write of an odd number of bytes on a 9-bit UART is EIO.
# - read: nothing within `timeout` is EAGAIN (readinto gives None); else characters until the buffer
#   is full or none comes within timeout_char (here: none waiting).
# - write: each uint16 masked with 0x1FF; returns bytes written (characters << 1).
# - rxbuf counts characters: the ring keeps rxbuf of them (read_buf_len = rxbuf + 1, one slot free),
#   one more waits in the data register while the ring is full (the RX interrupt is off), and the ones
#   after it are lost (overrun).
EIO = 5  # MP_EIO (py/mperrno.h)


class Stm32Uart:
    def __init__(self, uid, baudrate=115200, bits=8, parity=None, stop=1, timeout=0, timeout_char=0,
                 rxbuf=64, **pins):
        if parity is not None:
            bits += 1  # the parity bit is one of the frame's bits
        if bits not in (7, 8, 9):
            raise ValueError("unsupported combination of bits and parity")
        self.uid = uid
        self.baudrate = baudrate
        self.nine = bits == 9 and parity is None
        self.mask = 0x1FF if self.nine else 0xFF if bits == 9 or parity is None else 0x7F
        self.timeout_char = max(timeout_char, 13000 // baudrate + 2)  # a whole character, at least 2 ms
        self.rxbuf = rxbuf
        self.rx = []  # characters received, oldest first (the ring, then the data register)
        self.lost = 0  # overruns
        self.sent = []  # characters the board wrote, as they went on the wire

    # --- the other end of the line ---------------------------------------------------------------
    def arrive(self, chars):
        """Characters on RX (ints: 0x100 | byte for one with its 9th bit set)."""
        for c in chars:
            if len(self.rx) < self.rxbuf + 1:
                self.rx.append(c & self.mask)
            else:
                self.lost += 1

    def take(self):
        """What the board wrote since the last take, as characters."""
        out = self.sent
        self.sent = []
        return out

    # --- machine.UART ------------------------------------------------------------------------------
    def any(self):
        return len(self.rx)

    def readinto(self, buf):
        size = len(buf)
        if self.nine and size & 1:
            raise OSError(EIO)
        if not self.rx:
            return None  # EAGAIN
        n = 0
        while self.rx and n < size:
            c = self.rx.pop(0)
            if self.nine:
                buf[n] = c & 0xFF
                buf[n + 1] = c >> 8
                n += 2
            else:
                buf[n] = c
                n += 1
        return n

    def write(self, buf):
        size = len(buf)
        if self.nine:
            if size & 1:
                raise OSError(EIO)
            for i in range(0, size, 2):
                self.sent.append((buf[i] | buf[i + 1] << 8) & 0x1FF)
        else:
            for b in buf:
                self.sent.append(b)
        return size
