# Notes by value over SAS, from the books' counts (firmware/note_counts.py): 1E (the $1, $5, $10,
# $20, $50 and $100 counts), 31-45 (one value's count each, 3D excepted), 48 (the last note).
# Layouts (SAS 6.02 as saspy's sas.py reads them, size=28 for 1E and size=8 for 31-45, and as
# Monaco's public `Aristocrat.Sas.Client` LP1E, LP31-LP45 and LP48 parsers give them): counts as
# 4 BCD (8 digits: they roll over there); 48: country code (1 BCD, SAS Table C-6: Canada 07),
# denomination code (1 BCD, Table C-6), that value's count (4 BCD).
from board.sas_link import NACK
from firmware.sas import bcd

CANADA = 7  # Table C-6's country code (Monaco's BillAcceptorCountryCode: Canada 7, Euro 39)
# long poll -> the note's value in dollars (Monaco's LP31Send1DollarBillsIn ... LP45Send250DollarBillsIn)
POLLS = (0x31, 1, 0x32, 2, 0x33, 5, 0x34, 10, 0x35, 20, 0x36, 50, 0x37, 100, 0x38, 500, 0x39, 1000, 0x3A, 200,
         0x3B, 25, 0x3C, 2000, 0x3E, 2500, 0x3F, 5000, 0x40, 10000, 0x41, 20000, 0x42, 25000, 0x43, 50000,
         0x44, 100000, 0x45, 250)
BILL_METERS = (1, 5, 10, 20, 50, 100)  # 1E's, in its order


def handle(m, rx, k, out):
    if m.cab.ram_error:
        return NACK  # memory that cannot be trusted is not reported
    notes = m.ledger.notes
    cmd = rx[1]
    if cmd == 0x1E:
        i = 2
        for dollars in BILL_METERS:
            i = bcd.put(out, i, notes.of(dollars * 100), 4)
        return i - 2
    if cmd == 0x48:
        c = notes.last
        bcd.put(out, 2, CANADA if c >= 0 else 0, 1)
        bcd.put(out, 3, c if c >= 0 else 0, 1)
        bcd.put(out, 4, notes.counts[c] if c >= 0 else 0, 4)
        return 6
    for i in range(0, len(POLLS), 2):
        if POLLS[i] == cmd:
            bcd.put(out, 2, notes.of(POLLS[i + 1] * 100), 4)
            return 4
    return None
