# The SAS port's writes stamped with the fake board's clock: what the latency tests
# (test_sas_printer_latency.py, test_sas_cctalk_latency.py) read to tell which pass answered a poll.


class StampedLine:
    def __init__(self, cab):
        self.cab = cab
        self.at = []
        uart = cab.uart
        write = uart.write

        def stamped(b):
            self.at.append(cab.board.now)
            return write(b)

        uart.write = stamped
