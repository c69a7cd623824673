"""SAS tournament polls (8C enter/exit tournament mode, 95-99 the tournament's meters) on the real
firmware image (a casino cabinet on the emulated board whose operator published the rules of a
tournament the system may start: settings.json SAS_TOURNAMENT), driven by the project's own host
(sim/sas_host.py). The messages are built here from SAS 6.02's layouts (docs/sas.md "Tournament"),
the meters held to the games' recall records and the console's `tournament`, never to the SAS code.
saspy has no call for these polls (its sas.py marks 8C and 95-99 TODO)."""
from __future__ import annotations

import json

import pytest
from sas_rig import sas_cabinet, sas_host

from sim.sas_host import SasHost, bcd

RULES = {"fee": 1, "games": 2, "pct": 40, "name": "Soiree SAS"}
ACK, NACK = 0x01, 0x81


@pytest.fixture(scope="module")
def cab(tmp_path_factory):
    yield from sas_cabinet(tmp_path_factory.mktemp("sas-tour"), {"SAS_TOURNAMENT": RULES})


@pytest.fixture(scope="module")
def host(cab):
    yield from sas_host(cab)


def enter(host: SasHost, credits: int, time: bytes = b"\x20\x00", pulses: int = 0) -> int | None:
    """8C: game 0001, time MMSS, credits (4 BCD), pulses."""
    return host.command(0x8C, b"\x00\x01" + time + bytes.fromhex("%08d" % credits) + bytes((pulses,)))


def leave(host: SasHost) -> int | None:
    return host.command(0x8C, b"\x00\x01" + bytes(7))


def meters(host: SasHost) -> list[int]:
    got = []
    for cmd in (0x95, 0x96, 0x97, 0x98):
        d = host.checked(cmd, 10, b"\x00\x01")  # address, command, game, meter, CRC
        assert d[:2] == b"\x00\x01"
        got.append(bcd(d[2:6]))
    d = host.checked(0x99, 22, b"\x00\x01")
    assert d[:2] == b"\x00\x01" and [bcd(d[2 + 4 * i:6 + 4 * i]) for i in range(4)] == got
    return got


def tournament_games(cab) -> list[dict]:
    out = cab.console.command("recall json")
    return [g for g in json.loads(out[-1])["games"] if g.get("tour")]


def test_the_system_starts_a_tournament_the_player_enters_and_the_system_ends_it(cab, host) -> None:
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    assert host.checked(0xA0, 9, b"\x00\x01")[2] & 0x08  # A0 feature 1 bit 3: tournament
    assert meters(host) == [0, 0, 0, 0]
    assert enter(host, 100, pulses=1) == NACK  # no pulse output
    assert host.command(0x01) == ACK  # the system's shut down: the host tilt
    cab.panel.wait_for(lambda s: s.get("state") == "tilt")
    assert enter(host, 100) == NACK  # SAS 6.02 s. 11.2: a tilt is waited out (the state table refuses it)
    assert host.command(0x02) == ACK
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    assert cab.console.command("tournament")[:1] == ["no tournament"]
    assert enter(host, 100) == ACK  # 20:00, 100 tournament credits
    lines = cab.console.command("tournament")
    assert any("Soiree SAS" in ln and "for 1 h" in ln for ln in lines), lines
    assert any("fee 1 credits" in ln and "2 games with 100 tournament credits" in ln for ln in lines), lines
    assert cab.panel.wait_for(lambda s: s.get("tournament") is not None)["tournament"]["credits"] == 100
    assert enter(host, 100, b"\x10\x00") == NACK  # one is running
    cab.insert_token()  # 4 credits: the fee and more
    cab.play()  # the fee off the credit meter, the entry's first game
    assert leave(host) == NACK  # an entry is being played: as 'tournament end' refuses
    cab.play()  # its second and last game
    games = tournament_games(cab)
    assert len(games) == 2
    want = [2, sum(1 for g in games if g["win"]), sum(g["bet"] for g in games), sum(g["win"] for g in games)]
    assert meters(host) == want
    m = cab.meters()
    assert leave(host) == ACK
    assert cab.console.command("tournament")[:1] == ["no tournament"]
    assert cab.meters()["tournament_prizes"] == m["tournament_prizes"] + 1  # 40 % of 1, rounded up: one winner
    assert meters(host) == want  # kept until the next start
    cab.power_cut()
    cab.boot()
    host.sync()
    host.exceptions()
    assert meters(host) == want  # in critical memory
    assert enter(host, 30, b"\x00\x30") == ACK
    cab.power_cut()
    cab.boot()
    host.sync()
    host.exceptions()
    assert meters(host) == [0, 0, 0, 0]
    assert any("2 games with 30 tournament credits" in ln for ln in cab.console.command("tournament"))
