"""The fuzz campaign's state machine: every rule (sim/fuzz/rules.py for any cabinet, sim/fuzz/rules_vlt.py
for a vlt's, sim/fuzz/rules_service.py for the technician's and the operator's, sim/fuzz/rules_table.py
for a table game's rounds, sim/fuzz/rules_sas.py for the central system's) and the check after every step
(sim/fuzz/checks.py), on one emulated cabinet."""
from __future__ import annotations

from sim.fuzz.checks import Checks
from sim.fuzz.rules import CabinetRules
from sim.fuzz.rules_sas import SasRules, SasTicketRules
from sim.fuzz.rules_service import ServiceRules
from sim.fuzz.rules_table import TableRules
from sim.fuzz.rules_vlt import VltRules


class Machine(Checks, SasRules, SasTicketRules, VltRules, ServiceRules, TableRules, CabinetRules):
    pass
