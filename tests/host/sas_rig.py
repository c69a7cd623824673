"""The SAS host tests' cabinet and system, made and let go alike in each test module: the firmware
image on the emulated board with its SAS line (a pseudo-terminal, docs/sas.md), and the project's
own host on that line (sim/sas_host.py). Generators for module-scoped fixtures:

    @pytest.fixture(scope="module")
    def cab(tmp_path_factory):
        yield from sas_cabinet(tmp_path_factory.mktemp("sas"))
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from sim.harness import EmulatedCabinet
from sim.sas_host import SasHost


def sas_cabinet(state: Path, settings: dict | None = None, **kw) -> Iterator[EmulatedCabinet]:
    """A cabinet booted with its SAS line (kw: EmulatedCabinet's, e.g. jurisdiction); settings:
    STATE/settings.json written first. Shut down and its line unplugged after the module."""
    if settings is not None:
        (state / "settings.json").write_text(json.dumps(settings))
    c = EmulatedCabinet(state, sas=True, **kw)
    c.boot()
    try:
        yield c
    finally:
        c.shutdown()
        c.close_sas()


def sas_host(cab: EmulatedCabinet, drain: bool = True) -> Iterator[SasHost]:
    """The project's host on the cabinet's line, synchronised (its chirps dropped) and, with drain,
    its pending exceptions read (the power-up's): a test then sees only what it causes."""
    h = SasHost(cab.sas_path)
    h.sync()
    if drain:
        h.exceptions()
    try:
        yield h
    finally:
        h.close()
