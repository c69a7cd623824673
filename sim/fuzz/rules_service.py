"""The fuzz campaign's rules for the technician, the operator and the auditor: the RAM clear in any
posture (refused whenever anything is owed), a change of jurisdiction or credit value across a
reboot (with money owed or not), the operator's signed configuration changed (newer, older, a byte
changed, another key, another machine, a settings file contradicting it, deleted), the security
memory or the whole NVRAM part lost (then the operator's enrolment), the security log flooded by
lines from no session, archived and filled, a progressive preset near its ceiling, video poker's
keys from the console. A mixin of sim/fuzz/machine.py."""
from __future__ import annotations

import json
import time

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from firmware import config
from firmware.audit import SEC_BASE
from sim.fuzz import oracle
from sim.fuzz.games import VLT_SETS, game, progressive
from sim.fuzz.inputs import CONFIG_KINDS, DENOMS, HAND_WORDS, OWE, PRESET_BELOW, PRESET_ROLLED, SECURITY_KINDS
from sim.fuzz.oracle import Violation
from sim.fuzz.rules import logged
from sim.harness import ADMIN_ID, ADMIN_PIN, keep_log_room
from sim.preset import set_progressive
from tools import firmware as fwbuild

CPN_BASE = 126208  # firmware/coupon_store.py CPN_BASE: the security memory ends below it
ANONYMOUS = ("meters json", "ramclear", "account list", "setup x", "enrol", "validation set 1", "zz", "state")


def _has_progressive(self) -> bool:
    return self._calm() and (self.rig is None or any(progressive(g) for g in self.rig.games))


def _has_poker(self) -> bool:
    return self._playable() and (self.rig is None or any(hasattr(game(g), "suggest") for g in self.rig.games))


class ServiceRules:
    # --- the RAM clear -----------------------------------------------------------------------------------
    @precondition(lambda self: self._calm())
    @rule(prepare=st.booleans())
    @logged
    def ramclear(self, prepare: bool) -> None:
        """The administrator's RAM clear with the audit key turned, in whatever posture the sequence
        left (credits, a lock, a coupon owed, a note in escrow or of unknown fate, a tournament, a
        door or a tilt), or after the technician has first seen everything paid (the clear a coupon
        cabinet allows between coupons). Refused whenever anything is owed: one `refused` security
        record, nothing changed; taken only with nothing owed, keeping the tilts of the world."""
        rig = self.rig
        if prepare:
            self._pay_everything()
        rig.panel.set_pin("key_audit", 1)
        try:
            rig.wait_screen(lambda s: s.get("state") not in ("idle", "credit"), 1.0)
        except TimeoutError:
            pass
        rig.wait_polls(2)
        ram_error = rig.screen.get("state") == "ramerror"
        if not ram_error and not rig.command("hardmeters json")[-1].startswith("no "):
            rig.wait_hard_meters(10.0)  # the technician waits for the meters' last strokes
        owed = self._owed()
        lines = rig.command("state")
        before = None if ram_error else (rig.console_json("meters json"), oracle.lock(lines),
                                         rig.console_json("coupons json") if self._vlt() else None)
        mark = max([0] + [r[0] for r in rig.console_json("security json")])
        out = rig.command("ramclear")
        refusals = sum(1 for r in rig.console_json("security json")
                       if r[0] > mark and r[3] == "refused" and r[4].startswith("ramclear"))
        taken = oracle.ram_clear(out, owed, ram_error, refusals)
        self._audit_key_back()
        rig.wait_polls(2)
        if taken:
            oracle.world_tilts_survive(oracle.tilt_kinds(lines), oracle.tilt_kinds(rig.command("state")))
            self._cleared()
        elif before is not None:
            after = (rig.console_json("meters json"), oracle.lock(rig.command("state")),
                     rig.console_json("coupons json") if self._vlt() else None)
            oracle.unchanged("ramclear", before, after, f"a refused RAM clear ({out})")

    def _pay_everything(self) -> None:
        """The attendant and the technician see to everything owed: the printer seen to, a note of
        unknown fate settled from the cash box, the credits cashed out, the locks paid with the key,
        a tournament ended (its prizes paid by hand)."""
        rig = self.rig
        self._settle()
        if self._vlt():
            rig.printer.mute(False)
            rig.printer.fix()
            self._key()
            self._settle_note()
        for _ in range(2):
            self._key()
            self._cashout(None)
            self._key()
        if rig.command("tournament")[:1] != ["no tournament"]:
            rig.panel.set_pin("key_audit", 1)
            time.sleep(0.1)  # past the key's debounce
            rig.command("tournament end")
            self._audit_key_back()
            rig.wait_polls(2)
            self._key()
        self._settle()

    # --- the money basis ---------------------------------------------------------------------------------
    @precondition(lambda self: self._calm())
    @rule(juris=st.sampled_from(("casino", "vlt")), denom=st.sampled_from(DENOMS), owe=st.sampled_from(OWE))
    @logged
    def basis(self, juris: str, denom: int, owe: str) -> None:
        """The operator signs another jurisdiction or credit value (or the same), and the cabinet
        powers up with it: with nothing owed (everything paid first), credits on the meter, a coupon
        owed behind a printer out of paper, or as the sequence left it. While anything is owed under
        the books' basis the cabinet runs under it (a config tilt says the change waits); the basis
        changes only with nothing owed, with its `basis` event (checked after every power-up)."""
        rig = self.rig
        self._settle()
        if owe == "nothing":
            self._pay_everything()
        elif owe == "credits":
            self._insert(1)
        elif owe == "coupon" and self._vlt() and rig.screen.get("credits"):
            rig.printer.paper_out_after(0)
            self._press("cashout")
            try:
                rig.wait_screen(lambda s: s.get("state") == "payout", 2.0)
            except TimeoutError:
                pass
        self._settle()
        owed = bool(self._owed())
        self._cut()
        games = rig.games if juris == "casino" or rig.games in VLT_SETS else VLT_SETS[0]
        self._sign(juris, denom, games)
        self._ticket_settings(juris)  # a casino's ticket reader; none under vlt
        rig.games, rig.jurisdiction, self.asked = games, juris, (juris, denom)
        self._boot()
        self._booted(owed)
        if owe == "coupon":  # the attendant loads paper: the coupon owed prints under the old rules
            rig.printer.fix()
            self._key()

    # --- the operator's signed configuration ---------------------------------------------------------------
    @precondition(lambda self: self._calm())
    @rule(kind=st.sampled_from(CONFIG_KINDS), restore=st.sampled_from((True, True, False)))
    @logged
    def operator_config(self, kind: str, restore: bool) -> None:
        """STATE/operator.json changed while the power is off: a newer number (taken), an older one
        (refused, however genuine), a byte changed, signed by another key (the release key), for
        another machine, a settings file contradicting it, deleted. A refused one is the config
        tilt (money still cashed out by the committed rules); `restore` has the operator sign a good
        one with the next number and powers up again. The configuration floor never goes down."""
        rig = self.rig
        self._settle()
        owed = bool(self._owed())
        self._cut()
        juris, denom = self.asked
        cfg = rig.state / "operator.json"
        floor = self.floors.get("config", 0)
        if kind != "newer" and not cfg.exists():
            self._sign(juris, denom, rig.games, number=max(floor, self.config_no) + 1)  # one to spoil
        refused = True
        if kind == "newer" or (kind == "older" and floor < 2):
            self._sign(juris, denom, rig.games, number=max(floor, self.config_no) + 1)
            refused = False
        elif kind == "older":
            self._sign(juris, denom, rig.games, number=floor - 1)
        elif kind == "tampered":
            data = cfg.read_bytes()
            cfg.write_bytes(data.replace(b"\n ", b"\n\t", 1))  # the same JSON, not the bytes signed
        elif kind == "other_key":
            self._sign(juris, denom, rig.games, key=fwbuild.DEV_KEY)  # the release key, not the operator's
        elif kind == "other_machine":
            self._sign(juris, denom, rig.games, machine="JTN-OTHER-0001")
        elif kind == "settings":
            (rig.state / "settings.json").write_text(json.dumps({"DENOM_CENTS": 10 if denom != 10 else 25}))
        else:
            cfg.unlink()
            refused = juris == "vlt" or self.running_basis[0] == "vlt"
            if not refused:  # a casino runs on plain settings: the credit value is theirs, else config.py's
                f = rig.state / "settings.json"  # one a 'settings' step left (restore False) stays in force
                plain = json.loads(f.read_text()).get("DENOM_CENTS") if f.exists() else None
                self.asked = ("casino", plain or config.DENOM_CENTS)
        self._boot()
        self._booted(owed)
        tilts = oracle.tilt_kinds(rig.command("state"))
        if refused and "config" not in tilts and rig.screen.get("state") != "ramerror":
            raise Violation("config", f"operator.json {kind}: no config tilt ({sorted(tilts)})")
        if restore:
            self._settle()
            owed = bool(self._owed())
            self._cut()
            (rig.state / "settings.json").unlink(missing_ok=True)
            self._ticket_settings(juris)
            self._sign(juris, denom, rig.games, number=max(self.floors.get("config", 0), self.config_no) + 1)
            self.asked = (juris, denom)  # what is signed now (a deleted file had the model expect config.py's)
            self._boot()
            self._booted(owed)

    # --- the security memory and log ------------------------------------------------------------------------
    @precondition(lambda self: self._calm())
    @rule(kind=st.sampled_from(SECURITY_KINDS), n=st.integers(20, 200))
    @logged
    def security(self, kind: str, n: int) -> None:
        """The security log: n lines from no session (counted as noise, never records); an auditor's
        archive up to a record in the middle (every record above it stays); the log filled with
        commands until privileged ones are refused (only at the reserve), then archived; the
        security memory lost while the power is off, or the whole NVRAM part deleted (then the first
        administrator again only by the operator's enrolment, never by the audit key alone)."""
        rig = self.rig
        con = rig.console
        if kind == "flood":
            keep_log_room(con)
            before = rig.console_json("security status")
            con.command("logout")
            for i in range(n):
                con.command(ANONYMOUS[i % len(ANONYMOUS)])
            reply = con.login(ADMIN_ID, ADMIN_PIN)
            if not reply or not reply[0].startswith("logged in"):
                raise Violation("security", f"login after {n} anonymous lines answered {reply}")
            oracle.noise_not_recorded(before, rig.console_json("security status"), n, own=4)
        elif kind == "archive":
            archived = rig.console_json("security status")["archived"]
            recs = rig.console_json("security json")
            above = [r[0] for r in recs if r[0] > archived]  # an archive mark only goes up
            if len(above) >= 4:
                mark = above[len(above) // 2]
                out = rig.command(f"security archive {mark}")
                if not out or out[0].startswith("error"):
                    raise Violation("security", f"'security archive {mark}' answered {out}")
                oracle.archive_kept(recs, rig.console_json("security json"), mark)
        elif kind == "fill":
            for _ in range(400):
                out = con.command("meters json")
                if any("security log full" in ln for ln in out):
                    oracle.log_full_only_at_reserve(out, json.loads(con.command("security status")[-1]))
                    break
            keep_log_room(con)
        else:
            self._settle()
            owed = bool(self._owed())
            self._cut()
            path = rig.state / "nvram.bin"
            if kind == "lost":
                data = bytearray(path.read_bytes())
                data[SEC_BASE:CPN_BASE] = bytes(CPN_BASE - SEC_BASE)
                path.write_bytes(bytes(data))
            else:
                path.unlink()
                self.expect_ramerror = True  # the books are gone too
            self._boot()  # the harness's sign-in: refused by the audit key, made by an enrolment
            self._booted(owed if kind == "lost" else None)
            oracle.enrolled(rig.console_json("security json"))
            if kind == "lost_nvram":
                if rig.screen.get("state") != "ramerror":
                    raise Violation("ramerror", f"nvram.bin deleted: the books opened without a RAM error "
                                                f"({rig.screen.get('state')})")
                if rig.running == "vlt":  # the coupon memory went with it: what it keeps now
                    self.kept = {r["s"]: r["n"] for r in rig.console_json("coupons json") if r["st"] != "acked"}

    # --- the progressive ------------------------------------------------------------------------------------
    @precondition(_has_progressive)
    @rule(below=st.sampled_from(PRESET_BELOW), rolled=st.sampled_from(PRESET_ROLLED))
    @logged
    def progressive_preset(self, below: int, rolled: int) -> None:
        """A test bench puts the powered-off cabinet's progressive `below` units under its ceiling
        (3 is one bet-3 game short), with `rolled` units rolled over (sim/preset.py): games at the
        progressive's bet then reach and pass the ceiling, which the screen never shows above it."""
        rig = self.rig
        spec = progressive(rig.screen.get("id")) if rig.screen.get("id") in rig.games else None
        if spec is None or spec["ceiling"] is None or rig.screen.get("state") == "ramerror":
            return
        self._settle()
        owed = bool(self._owed())
        self._cut()
        set_progressive(rig.state, spec["ceiling"] * spec["den"] - below, rolled)
        self._boot()
        self._booted(owed)

    # --- video poker from the console ----------------------------------------------------------------------
    @precondition(_has_poker)
    @rule(word=st.sampled_from(HAND_WORDS), card=st.integers(1, 5))
    @logged
    def hand(self, word: str, card: int) -> None:
        """Video poker's keys from a test bench's console (`hand deal|draw|hold N|auto`): each an
        event of the state table, deal and draw never taken for each other; a deal or a draw plays
        at most one game."""
        self.plays = 1 if word in ("deal", "draw") else 0
        self.rig.command(f"hand hold {card}" if word == "hold" else f"hand {word}")
        self.rig.wait_polls(2, 1.0)
        self._settle()
