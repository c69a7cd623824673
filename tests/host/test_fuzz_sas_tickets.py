"""The fuzz campaign's rules for the ticket data and system validation (sim/fuzz/rules_sas.py
SasTicketRules: SAS 7B-7D, 57/58) on the real firmware, each step followed by the checks of every
step (the money on paper and on the meter, the records kept, the exceptions reported): every kind
of each rule once, on a vlt cabinet, then on a casino one (no coupon memory: no answer)."""
from __future__ import annotations

from test_stateful import play

VLT = {"games": ("sept-royal-87",), "juris": "vlt", "vlt_games": ("sept-royal-91",)}
CASINO = {"games": ("sept-royal-87",), "juris": "casino"}


def ticket(kind: str, texts: list[str], host: int = 0x1234, days: int = 3, codes: list[int] = (0, 1)) -> list:
    return ["sas_ticket_data", {"kind": kind, "host": host, "days": days, "texts": texts, "codes": list(codes),
                                "rdays": 7}]


def test_each_ticket_data_and_system_validation_rule_on_a_vlt():
    m = play([["power_on", VLT], ["player", {"actions": ["token", "token"]}],
              ticket("7D", ["SALON LE TREFLE", "", "QUEBEC"]), ticket("7D_ask", []), ticket("7C", ["RUE NEUVE"]),
              ticket("7B", [], days=3), ticket("bad", ["X"]), ticket("7D_all", ["BAR"], days=0),
              ticket("owed", ["AUTRE SALON"]),
              ["sas_system_validation", {"kind": "number", "sid": 7}],
              ["sas_system_validation", {"kind": "refuse", "sid": 7}],
              ["sas_system_validation", {"kind": "early", "sid": 12}],
              ["sas_system_validation", {"kind": "cut_asked", "sid": 99}],
              ["sas_system_validation", {"kind": "cut_read", "sid": 1}],
              ["sas_system_validation", {"kind": "cut_answered", "sid": 42}],
              ["sas_system_validation", {"kind": "timeout", "sid": 3}]])
    try:
        assert not m.failed and m.sv_timeouts == 1
        numbers = [t.number for t in m.rig.printer.tickets if t.number and t.number[:2] in ("07", "12", "99", "01", "42")]
        assert len(set(numbers)) >= 5, numbers  # each answered cash-out printed under the system's number
    finally:
        m.teardown()


def test_a_casino_cabinet_answers_none_of_them():
    m = play([["power_on", CASINO], ticket("7D", ["A"]), ["sas_system_validation", {"kind": "number", "sid": 1}]])
    try:
        assert not m.failed
    finally:
        m.teardown()
