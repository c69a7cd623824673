"""Meter snapshots and their reconciliation (issue 27, "Meters and events"). A snapshot is stored
under the cabinet's next sequence number; what it changed since the last one is checked:

- **backwards**: a meter below its last value (SAS meters are 8 BCD digits: a meter that wraps past
  99,999,999 to a small value is a roll-over, not a fault: within ROLLOVER_SLACK of the top before,
  within it after);
- **jump**: more wagered than the games played could take (coin in up by more than games played
  times the largest bet, SAS 1F), more games won than played (plus the one that may have been in
  progress at the last snapshot: a game counts as played at its wager, as won at its settlement);
- **unbalanced**: the credit meter does not follow the meters that move it. Every credit enters by
  the drop (coins and notes, SAS 24) or a win onto the meter (coin out, 01) and leaves by a wager
  (coin in, 00) or a cash-out (total cancelled credits, 04; the hopper, a hand pay or a coupon), so
  credits after = credits before + drop + coin out - coin in - cancelled. The firmware commits each
  pair in one transaction (docs/architecture.md, the spine), so two snapshots of one 2F each always
  balance.

A flag is kept beside the snapshot (`meter_flags`); the snapshot is stored all the same (it is what
the machine said)."""
from __future__ import annotations

from dataclasses import dataclass

from central.store import Tx

METER_TOP = 10**8  # SAS 4-byte BCD meters: 8 digits (docs/sas.md)
ROLLOVER_SLACK = 10**6
COUNTED = ("coin_in", "coin_out", "jackpot", "cancelled", "drop_in", "games_played", "games_won", "doors",
           "power_resets")
COLUMNS = COUNTED + ("credits",)


@dataclass(frozen=True)
class Flag:
    meter: str
    before: int
    after: int
    why: str


def delta(before: int, after: int) -> int | None:
    """How far a counted meter moved: None when it went backwards (not a roll-over)."""
    if after >= before:
        return after - before
    if before >= METER_TOP - ROLLOVER_SLACK and after < ROLLOVER_SLACK:
        return after + METER_TOP - before
    return None


def check(before: dict[str, int], after: dict[str, int], max_bet: int | None) -> list[Flag]:
    flags = []
    moved: dict[str, int] = {}
    for name in COUNTED:
        d = delta(before[name], after[name])
        if d is None:
            flags.append(Flag(name, before[name], after[name], "went backwards"))
        else:
            moved[name] = d
    if len(moved) < len(COUNTED):
        return flags  # a meter gone back: nothing else can be reconciled against it
    games = moved["games_played"]
    if max_bet is not None and moved["coin_in"] > games * max_bet:
        flags.append(Flag("coin_in", before["coin_in"], after["coin_in"],
                          f"jumped: {moved['coin_in']} credits wagered in {games} games of at most {max_bet}"))
    # a game is counted played at its wager and won at its settlement: one wagered before the last
    # snapshot may be won after it, so at most one win more than the games wagered since
    if moved["games_won"] > games + 1:
        flags.append(Flag("games_won", before["games_won"], after["games_won"],
                          f"jumped: {moved['games_won']} games won of {games} played since (and one in progress)"))
    want = before["credits"] + moved["drop_in"] + moved["coin_out"] - moved["coin_in"] - moved["cancelled"]
    if after["credits"] != want:
        flags.append(Flag("credits", before["credits"], after["credits"],
                          f"unbalanced: the meters moved give {want}"))
    return flags


def before(tx: Tx, cabinet: str, seq: int) -> dict[str, int] | None:
    """The snapshot stored last before `seq`."""
    row = tx.one(f"SELECT {', '.join(COLUMNS)} FROM meter_snapshots WHERE cabinet = ? AND seq < ? "
                 "ORDER BY seq DESC LIMIT 1", (cabinet, seq))
    return dict(zip(COLUMNS, row)) if row else None


def last_seq(tx: Tx, cabinet: str) -> int:
    row = tx.one("SELECT COALESCE(MAX(seq), 0) FROM meter_snapshots WHERE cabinet = ?", (cabinet,))
    return row[0] if row else 0


def store(tx: Tx, cabinet: str, meters: dict[str, int], at: int, max_bet: int | None,
          seq: int | None = None) -> tuple[int, list[Flag]]:
    """Store a snapshot under `seq` (the site's; None: the next) and its flags; (seq, flags). A
    snapshot stored already (a replay) changes nothing: (seq, [])."""
    if seq is None:
        seq = last_seq(tx, cabinet) + 1
    if tx.run(f"INSERT INTO meter_snapshots (cabinet, seq, at, {', '.join(COLUMNS)}) VALUES (?, ?, ?"
              + ", ?" * len(COLUMNS) + ") ON CONFLICT (cabinet, seq) DO NOTHING",
              (cabinet, seq, at, *(meters[c] for c in COLUMNS))) != 1:
        return seq, []
    prev = before(tx, cabinet, seq)
    flags = check(prev, meters, max_bet) if prev else []
    for f in flags:
        tx.run("INSERT INTO meter_flags (cabinet, seq, meter, before_value, after_value, why) VALUES (?, ?, ?, ?, ?, ?)",
               (cabinet, seq, f.meter, f.before, f.after, f.why))
    return seq, flags
