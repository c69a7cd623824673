"""What the site controller reads from a machine over SAS, through the project's own host
(`sim/sas_host.py` SasHost): the replies' fields decoded (layouts: docs/sas.md, SAS 6.02)."""
from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass

from sim.sas_host import SasHost, bcd

QUEBEC = zoneinfo.ZoneInfo("America/Montreal")  # a machine's SAS dates and times are local (docs/coupons.md)
# SAS Table C-7 codes read in one 2F, so that they agree with each other (one answer, one loop pass)
SNAPSHOT_CODES = (
    ("coin_in", 0x00), ("coin_out", 0x01), ("jackpot", 0x02), ("cancelled", 0x04),
    ("games_played", 0x05), ("games_won", 0x06), ("credits", 0x0C), ("drop_in", 0x24),
)
NO_COUPON = bytes(31)


@dataclass(frozen=True)
class MachineInfo:
    machine_id: str        # 54: the serial
    paytable: str          # 1F: the paytable id
    max_bet: int           # 1F: the largest bet, credits
    denom_code: int        # 1F: SAS Table C-4


@dataclass(frozen=True)
class CouponRecord:
    """One 4D record: a coupon the machine printed."""
    number: str            # 18 digits: the system id (2) then the validation number (16)
    cents: int
    ticket: int            # the machine's coupon sequence, its last 4 digits
    issued_at: int         # seconds since the epoch (the local date and time read as Québec's)
    index: int


def machine_info(host: SasHost) -> MachineInfo:
    serial = host.variable(0x54)  # SAS version (3 ASCII), serial
    info = host.checked(0x1F, 24)
    return MachineInfo(machine_id=serial[3:].decode("ascii", "replace"),
                       paytable=info[10:16].decode("ascii", "replace").strip(), max_bet=info[6], denom_code=info[5])


def validation_id(host: SasHost, vid: int = 0, seq: int = 0) -> tuple[int, int]:
    """4C: set the machine's secure enhanced validation id (0 only reads): (id, sequence) in force."""
    d = host.checked(0x4C, 10, vid.to_bytes(3, "little") + seq.to_bytes(3, "little"))
    return int.from_bytes(d[:3], "little"), int.from_bytes(d[3:6], "little")


def snapshot_meters(host: SasHost) -> dict[str, int]:
    """2F (game 0, the machine) for SNAPSHOT_CODES, then 1C for the slot door and power resets."""
    codes = bytes(code for _, code in SNAPSHOT_CODES)
    d = host.variable(0x2F, b"\x00\x00" + codes, multi=True)
    got: dict[int, int] = {}
    i = 2
    while i + 5 <= len(d):
        got[d[i]] = bcd(d[i + 1:i + 5])
        i += 5
    missing = [name for name, code in SNAPSHOT_CODES if code not in got]
    if missing:
        raise ValueError(f"2F left out {missing}: {d.hex()}")
    out = {name: got[code] for name, code in SNAPSHOT_CODES}
    m = host.checked(0x1C, 36)
    out["doors"] = bcd(m[24:28])
    out["power_resets"] = bcd(m[28:32])
    return out


def _local(date: bytes, time: bytes) -> int:
    when = datetime.datetime.strptime(date.hex() + time.hex(), "%m%d%Y%H%M%S")
    return int(when.replace(tzinfo=QUEBEC).timestamp())


def coupon(host: SasHost, function: int) -> CouponRecord | None:
    """4D: FF looks at the oldest record not yet read (the machine keeps it), 00 reads it (the
    machine marks it acknowledged), 1-31 the n-th kept. None: no record."""
    d = host.checked(0x4D, 35, bytes([function]))
    if d == NO_COUPON:
        return None
    number = d[24:25].hex() + d[9:17].hex()
    if not number.isdigit() or len(number) != 18:
        raise ValueError(f"4D: validation number not BCD: {d.hex()}")
    return CouponRecord(number=number, cents=bcd(d[17:22]), ticket=bcd(d[22:24]), issued_at=_local(d[2:6], d[6:9]),
                        index=d[1])
