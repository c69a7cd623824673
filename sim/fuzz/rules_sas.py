"""The fuzz campaign's rules for the central system on the SAS line (docs/sas.md): meter polls, the
system's orders in whatever state the sequence left, bad CRCs, polls to another address, partial
frames, floods of bytes, a system that stops polling past the link-down time; and the check after
every step (`_check_sas`: 1C and 1A against the books, the exceptions reported once). The system is
the project's own host (sim/sas_host.py, written from SAS 6.02, not from the firmware); a thread
drains the general polls every `KEEP_S` (the link stays up: a vlt plays only with it) and keeps the
codes for the check. A mixin of sim/fuzz/machine.py."""
from __future__ import annotations

import datetime
import threading
import time
import zoneinfo

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from firmware import states
from sim.fuzz import oracle
from sim.fuzz.games import progressive
from sim.fuzz.inputs import (
    LINK_KINDS,
    LINK_MALFORMED,
    LINK_SILENCES,
    ROM_SIGNATURES,
    SAS_CLOCK,
    SAS_METER_CODES,
    SAS_METER_POLLS,
    SAS_NOISE,
    SAS_ORDERS,
    SAS_RAISED,
    SAS_REPEATS,
    SAS_TOURNAMENT,
    TICKET_ANSWERS,
)
from sim.fuzz.oracle import Violation
from sim.fuzz.rules import TICKETS, logged
from sim.sas_host import SasHost, bcd, crc

# address bytes skipped before a general poll's answer: a machine whose link was down chirps its
# address until it sees a poll (no exception code is 01), more than three times when it is busy (make
# test: the 2611 sequence read a fourth chirp as an exception code 01)
CHIRPS = 64
# chirps after our poll: the machine read its input and our poll was not in it (one that came
# while it was off or booting is dropped unanswered, board/sas_link.py): it is asked again. Three:
# the first may precede the poll, and a second may leave in the pass the poll arrived in
CHIRPS_ASK = 3
# a general poll unanswered within the host's read timeout is waited for this long in all: a late
# answer taken for the next poll's made the one after it flushed and lost (a power-up's 17 on a
# loaded host, make fuzz STEPS=5000 SEED=3527)
LATE_S = 3.0
KEEP_S = 0.3  # the system's general polls: well inside the 5 s link-down time
LINK_DOWN_S = 5.6  # past board/sas_link.py LINK_DOWN_MS (5 s), with a loop pass to spare
# the link-down rule costs LINK_DOWN_S of silence and does the same each time: once a sequence (make
# test's six derandomized sequences drew it 28 times in 150 steps, 157 s of the suite's time)
LINK_DOWNS = 1
TICKET_CYCLES = 6  # tickets a sequence presents: each waits for its 70/71 cycle (silence: 10 s)
TICKET_WAIT_S = 12.0  # past firmware/bill_in.py TICKET_WAIT_MS (10 s), with the validator's poll to spare
# the states no game, payout or reel can leave within a step's poll: an order's answer is judged there
STEADY = ("idle", "credit", "tilt", "door", "handpay", "jackpot", "ramerror", "service", "audit")


class SasSystem:
    """The central system on the rig's SAS line."""

    def __init__(self, path: str, group: int | None = None, cents: int = 0) -> None:
        self.host = SasHost(path, timeout=0.5)
        self.codes: list[int] = []  # exceptions reported since the last check, in order
        self.silent = threading.Event()  # set: the system stops polling (the link-down rule)
        self.stop = threading.Event()
        # the progressive controller (docs/sas.md "The linked progressive"): the group whose level 1 it
        # broadcasts with each keep-alive (None: none), the amount in cents, and, the fuzz's own record,
        # the instants (host clock) of its broadcasts for the group (sim/fuzz/oracle.py silences)
        self.group = group
        self.cents = cents
        self.quiet = threading.Event()  # set: the controller is silent (the system still polls)
        self.heard: list[float] = [time.monotonic()]
        self.nacks: list[str] = []  # broadcasts to the machine it refused (a correct one never)
        self.turn = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(KEEP_S):
            if self.silent.is_set():
                continue
            try:
                self.drain()
                if self.group is not None and not self.quiet.is_set():
                    self.broadcast()
            except (TimeoutError, ValueError, OSError):
                pass  # the power is off, or the step under way says what is wrong

    def broadcast(self, to_all: bool | None = None) -> int | None:
        """The controller's level 1 for its group (and a level 2 beside it in the 86): 80 to address
        0 (no answer) and 86 to the machine's own address (ACK), in turn. Its answer (None: none)."""
        h = self.host
        with h.lock:
            self.turn += 1
            if to_all is None:
                to_all = self.turn % 2 == 0
            if to_all:
                r = h.progressive(self.group, [(1, self.cents)])
            else:
                r = h.progressive(self.group, [(1, self.cents), (2, (self.cents * 2 + 1) % 10 ** 10)], to_all=False)
            self.heard.append(time.monotonic())
            if r is not None and r != h.address:
                self.nacks.append(f"level {self.cents} cents to group {self.group}: answered {r:02X}")
            return r

    def heard_since(self, since: float) -> tuple[float, list[float]]:
        """The last broadcast at or before `since`, and those after it (and forgets older ones)."""
        with self.host.lock:
            before = [t for t in self.heard if t <= since]
            anchor = before[-1] if before else since
            self.heard = [anchor] + [t for t in self.heard if t > since]
            return anchor, list(self.heard[1:])

    def drain(self) -> None:
        """General polls until 00: every exception pending, kept in order. A byte that is our
        address is the machine's chirp (its link down, sent before it saw the poll: no exception
        code is 01): the answer follows it, or, after CHIRPS_ASK of them, the poll is asked again.
        A poll's answer is waited for up to LATE_S: one answer per poll, never the next one's."""
        h = self.host
        poll = bytes([0x80 | h.address])
        with h.lock:
            for _ in range(80):
                h.flush()
                h.send(poll)
                b = self._answer()
                for i in range(CHIRPS):
                    if b != bytes([h.address]):
                        break
                    if (i + 1) % CHIRPS_ASK == 0:
                        h.send(poll)
                    b = self._answer()
                else:
                    raise TimeoutError(f"only chirps ({CHIRPS}) in answer to a general poll")
                if not b:
                    raise TimeoutError("no answer to a general poll")
                if b[0] == 0:
                    return
                self.codes.append(b[0])
            raise Violation("sas_exception", f"more than 80 exceptions at once: {self.codes[-80:]}")

    def _answer(self) -> bytes:
        deadline = time.monotonic() + LATE_S
        b = self.host.read(1)
        while not b and time.monotonic() < deadline:
            b = self.host.read(1)
        return b

    def take(self) -> list[int]:
        with self.host.lock:
            out, self.codes = self.codes, []
            return out

    def close(self) -> None:
        self.stop.set()
        with self.host.lock:  # a drain under way ends first: its port is never closed under it
            self.host.close()
        self.thread.join(2)


def _sas(self) -> bool:
    return self._playable() and getattr(self, "sas", None) is not None


def _silent(self) -> bool:
    """A RAM error keeps the line silent until its clear (docs/sas.md): nothing to poll."""
    return self.rig.screen.get("state") == "ramerror"


class SasRules:
    # --- the system's life with the rig (hooks of sim/fuzz/rules.py and checks.py) ------------------------
    def _sas_start(self) -> None:
        link = getattr(self, "link", None)
        self.sas = SasSystem(self.rig.sas.path, link["group"] if link else None, getattr(self, "link_cents", 0))
        self.sas_before: dict | None = None  # oracle.sas_view at the last check (None: nothing to compare)
        self.sas_earlier: list[int] = []  # the codes reported in the window before
        self.sas_at = time.monotonic()  # the last check's instant (the controller's silences: oracle.silences)
        self.sas_linked: bool | None = None  # the cabinet linked at the last check (None: not known)
        self.link_levels = {self.sas.cents}

    def _sas_booted(self) -> None:
        """After a power-up: a vlt takes no money until its system has polled (at once, not at the
        next keep-alive)."""
        if getattr(self, "sas", None) is not None and self.rig.running == "vlt":
            try:
                self.sas.drain()
            except (TimeoutError, ValueError, OSError):
                pass
            # a RAM error keeps the line silent until its clear (docs/sas.md)
            self.rig.wait_screen(lambda s: s.get("link") != "down" or s.get("state") == "ramerror", 5.0)
        self._link_heard()

    def _link_heard(self, timeout: float = 3.0) -> None:
        """The controller's level heard at once (not at the next keep-alive), while it is not silent:
        broadcast to the machine until it answers (one that comes while it boots is dropped). A
        refusal is the oracle's (the keep-alive's `nacks`)."""
        sas = getattr(self, "sas", None)
        if sas is None or sas.group is None or sas.quiet.is_set() or self.rig.screen.get("state") == "ramerror":
            return
        deadline = time.monotonic() + timeout
        while sas.broadcast(to_all=False) is None and time.monotonic() < deadline:
            time.sleep(0.1)
        self.rig.wait_polls(2, 1.0)  # a loop pass: the tilt cleared and the display refreshed

    def _sas_stop(self) -> None:
        if getattr(self, "sas", None) is not None:
            self.sas.close()
            self.sas = None

    def _check_sas(self, m: dict, lines: list[str]) -> None:
        """Invariants (docs/sas.md "Not done yet" 1, 2): 1C and 1A read over SAS are the books'; the
        exceptions reported since the last check are each an event's, as many times as the model counts
        them, in the queue's order (sim/fuzz/oracle.py sas_exceptions). `lines`: the console's `state`,
        read after the meters `m`."""
        sas = getattr(self, "sas", None)
        if sas is None:
            return
        view = oracle.sas_view(m, lines, self._sas_notes(m), getattr(self, "sas_issued", None))
        try:
            with sas.host.lock:
                last = len(sas.codes)  # the check's own drain begins here, after the meters were read
                sas.drain()  # first: the link up, no chirp in what follows
                d = sas.host.checked(0x1C, 36)
                credits = sas.host.meter(0x1A)
        except (TimeoutError, ValueError, OSError) as e:
            raise Violation("sas", f"no valid answer over SAS after {self.step_kind}: {e!r}") from None
        oracle.sas_meters([bcd(d[i:i + 4]) for i in range(0, 32, 4)], credits, m, self.step_kind)
        codes = sas.take()
        did = dict(self.sas_did, clears=None if self.keyed else self.sas_did["clears"])
        # 53: the controller's silences past 5 s (the fuzz's own record of its broadcasts), on a cabinet
        # linked at both checks; none on one linked at neither; not known across a change
        now, linked = time.monotonic(), oracle.linked_state(lines) is not False
        anchor, heard = sas.heard_since(self.sas_at)
        if linked and self.sas_linked:
            sure, maybe = oracle.silences(heard, anchor, self.sas_at, now)
            did["silences"] = (sure, sure + maybe)
        elif not linked and self.sas_linked is False:
            did["silences"] = (0, 0)
        self.sas_at, self.sas_linked = now, linked
        if sas.nacks:
            raise Violation("linked", f"after {self.step_kind}: the machine refused the controller's broadcast: "
                                      f"{sas.nacks}")
        oracle.sas_exceptions(codes, self.sas_before, view, SAS_RAISED, self.step_kind, did, last,
                              self.sas_earlier)
        self.sas_before, self.sas_earlier = view, codes

    def _sas_notes(self, m: dict) -> dict[int, int] | None:
        """The notes the validator stacked, by value in cents (SAS 47-50), or None while a note of unknown fate
        stands (the books credit it only when the attendant settles it: its code comes then)."""
        if m["bill_unproven_credits"] != m["bill_settled_stacked"] + m["bill_settled_returned"]:
            return None
        bills = self.rig.bills
        with bills.lock:
            out: dict[int, int] = {}
            for t, n in bills.stacked.items():
                out[bills.cents(t)] = out.get(bills.cents(t), 0) + n
            return out

    # --- rules -----------------------------------------------------------------------------------------------
    @precondition(_sas)
    @rule(poll=st.sampled_from(SAS_METER_POLLS), codes=st.lists(st.sampled_from(SAS_METER_CODES), min_size=1,
                                                                  max_size=6))
    @logged
    def sas_meters(self, poll: str, codes: list[int]) -> None:
        """A meter poll, its answer against the console's meters (the same instant: nothing moves)."""
        h = self.sas.host
        m = self.rig.console_json("meters json")
        if poll == "1A":
            got = {"credits": h.meter(0x1A)}
            want = {"credits": m["credits"] % 10 ** 8}
        elif poll == "0F":
            d = h.checked(0x0F, 28)
            got = {"0F": [bcd(d[i:i + 4]) for i in range(0, 24, 4)]}
            want = {"0F": [v % 10 ** 8 for v in (m["cashout"], m["coin_in"], m["coin_out"],
                                                   oracle.drop(m), m["jackpot"], m["games_played"])]}
        elif poll == "1C":
            d = h.checked(0x1C, 36)
            got = {"1C": [bcd(d[i:i + 4]) for i in range(0, 32, 4)]}
            want = {"1C": [v % 10 ** 8 for v in (m["coin_in"], m["coin_out"], oracle.drop(m),
                                                   m["jackpot"], m["games_played"], m["games_won"], m["door_main"],
                                                   m["power_resets"])]}
        else:
            got, want = self._sas_game_meters(poll, codes, m)
        if got != want:
            raise Violation("sas_meters", f"{poll} {codes}: read {got}, the books {want}")

    def _sas_game_meters(self, poll: str, codes: list[int], m: dict) -> tuple[dict, dict]:
        """2F (4 BCD) or 6F (5 BCD, size 0 for a meter not kept) for game 1: the codes asked, decoded
        here from SAS Table C-7's meanings (docs/sas.md's mapping) against the console's meters."""
        table = {0x00: m["coin_in"], 0x01: m["coin_out"], 0x02: m["jackpot"], 0x03: m["cancelled"],
                 0x04: m["cashout"], 0x05: m["games_played"], 0x06: m["games_won"],
                 0x07: m["games_played"] - m["games_won"], 0x08: m["acceptor_in"], 0x09: m["hopper_out"],
                 0x0B: m["bill_in"], 0x0C: m["credits"], 0x16: m["coupon_out"], 0x22: m["coin_out"] + m["jackpot"],
                 0x23: m["cancelled"] + m["jackpot"], 0x24: oracle.drop(m)}
        h = self.sas.host
        got: dict = {}
        want: dict = {}
        if poll == "2F":
            d = h.variable(0x2F, b"\x00\x01" + bytes(codes), multi=True)
            i = 2
            while i < len(d):
                got[d[i]] = bcd(d[i + 1:i + 5])
                i += 5
            want = {c: table[c] % 10 ** 8 for c in codes if c in table}
        else:
            d = h.variable(0x6F, b"\x00\x01" + b"".join(c.to_bytes(2, "little") for c in codes), multi=True)
            i = 2
            while i < len(d):
                code, size = int.from_bytes(d[i:i + 2], "little"), d[i + 2]
                got[code] = bcd(d[i + 3:i + 3 + size]) if size else None
                i += 3 + size
            want = {c: (table[c] % 10 ** 10 if c in table else None) for c in codes}
        return got, want

    @precondition(_sas)
    @rule(order=st.sampled_from(SAS_ORDERS), cut=st.sampled_from((False, False, True)))
    @logged
    def sas_order(self, order: str, cut: bool = False) -> None:
        """One of the system's disables and, in the same step, its enable, in whatever state the
        sequence left: each taken (ACK) exactly where the state table takes host_disable /
        host_enable (NACK elsewhere); a disable taken stops play (a tilt) until its enable, through
        a power cut too (`cut`, from a steady state: the order's tilt is there after the power-up)."""
        h = self.sas.host
        rig = self.rig
        off, on, data_off, data_on = {"01/02": (0x01, 0x02, b"", b""), "06/07": (0x07, 0x06, b"", b""),
                                      "0A/0B": (0x0A, 0x0B, b"", b""),
                                      "09": (0x09, 0x09, b"\x00\x01\x01", b"\x00\x01\x00")}[order]
        with h.lock:  # the state read and the order sent with no poll between
            state = rig.screen.get("state")
            # 09 names game 1, the game the cabinet offers: with none offered (a RAM clear, a game
            # refused at power-up: the screen's model id is None) there is no game 1 to order
            no_game = order == "09" and rig.screen.get("id") is None
            answer = h.command(off, data_off)
        # a game may end between the read and the poll: judged only when the state was a steady one
        if state in ("idle", "credit", "tilt", "door", "handpay", "jackpot", "ramerror", "service"):
            taken = states.action(state, states.HOST_DISABLE) is not None and not no_game
            if answer != (0x01 if taken else 0x81):
                why = "no game is offered" if no_game else \
                    f"the state table {'takes' if taken else 'refuses'} host_disable"
                raise Violation("sas_order", f"{order} disable in {state}: answered {answer}, {why}")
        if answer == 0x01 and order != "06/07" and state in ("idle", "credit"):
            rig.wait_screen(lambda s: s.get("state") == "tilt", 3.0)
        if cut and answer == 0x01 and state in ("idle", "credit", "tilt"):
            self._order_kept(order)
            if _silent(self):
                return  # a RAM error: the order went with the books
            answer = h.command(on, data_on)
            if answer != 0x01:  # the power-up's state (a lock resumed, a door) may refuse it for a while
                rig.wait_screen(lambda s: s.get("state") in ("tilt", "idle", "credit"), 3.0)
                answer = h.command(on, data_on)
            if answer != 0x01 and rig.screen.get("state") == "tilt":
                raise Violation("sas_order", f"{order} enable after a power cut: answered {answer}")
            rig.wait_polls(2, 1.0)
            return
        answer = h.command(on, data_on)
        if no_game:
            if answer != 0x81:
                raise Violation("sas_order", f"09 enable with no game offered: answered {answer}, not NACK")
        elif answer != 0x01 and rig.screen.get("state") != "ramerror":
            raise Violation("sas_order", f"{order} enable in {rig.screen.get('state')}: answered {answer}")
        rig.wait_polls(2, 1.0)

    def _order_kept(self, order: str) -> None:
        """A power cut right after a disable taken: the order is kept (docs/sas.md: the queue's block),
        so its tilt is there again after the power-up (07's, which has none: the validator stays
        inhibited)."""
        self._cut()
        self._boot()
        self._booted(None)
        if _silent(self):
            return
        if order == "06/07":  # no tilt: the validator stays inhibited through the power-up's first polls
            rig = self.rig
            # judged where the firmware polls it (a vlt's notes, a casino's ticket reader): a boot that
            # does not use it leaves it as it was (docs/sas.md, "Not done yet")
            if rig.wait_bills(3, 3.0) and any(rig.bills.accepting(t) for t in range(1, 17)):
                raise Violation("sas_order", "07 taken (bill acceptor off), then a power cut: the validator "
                                             "accepts notes after the power-up")
            return
        kinds = oracle.tilt_kinds(self.rig.command("state"))
        if ORDER_TILTS[order] not in kinds:
            raise Violation("sas_order", f"{order} disable taken, then a power cut: no {ORDER_TILTS[order]} tilt "
                                         f"after the power-up ({sorted(kinds)})")

    @precondition(_sas)
    @rule(kind=st.sampled_from(SAS_NOISE), n=st.integers(1, 40),
          data=st.lists(st.integers(0, 255), min_size=1, max_size=40), address=st.integers(2, 127))
    @logged
    def sas_noise(self, kind: str, n: int, data: list[int], address: int) -> None:
        """What the line may carry that is no poll of ours: a poll with a bad CRC, a poll to another
        machine, a frame cut short then silence, a flood of bytes (none our general poll's, which
        would take an exception the system then never sees). Nothing changes (books, state), and
        the next valid poll is answered."""
        h = self.sas.host
        rig = self.rig
        before = rig.console_json("meters json")
        state = rig.screen.get("state")
        with h.lock:
            if kind == "bad_crc":
                msg = bytes([h.address, 0x01])  # 01 shut down, type S: taken only with its CRC
                bad = bytearray(crc(msg))
                bad[n % 2] ^= 1 + n % 255
                h.send(msg + bytes(bad))
            elif kind == "other_address":
                h.send(bytes([address, 0x01]) + crc(bytes([address, 0x01])))  # another machine's shut down
                h.send(bytes([0x80 | address]))  # and its general poll
            elif kind == "partial":
                body = bytes([h.address, 0x2F, 3, 0x00, 0x01, 0x0C])
                h.send((body + crc(body))[:2 + n % (len(body) - 1)])  # at least address and command, never the CRC whole
            else:
                h.send(bytes(b for b in data if b != 0x80 | h.address))
            h.settle()
            h.flush()
            credits = h.meter(0x1A)  # the next valid poll
        rig.wait_polls(2, 1.0)
        after = rig.console_json("meters json")
        if after != before or credits != after["credits"] % 10 ** 8:
            raise Violation("sas_noise", f"{kind}: meters {before} -> {after}, 1A {credits}")
        if rig.screen.get("state") != state and state in ("idle", "credit"):
            raise Violation("sas_noise", f"{kind}: state {state} -> {rig.screen.get('state')}")

    @precondition(lambda self: _sas(self) and self._calm() and getattr(self, "link_downs", 0) < LINK_DOWNS)
    @rule()
    @logged
    def sas_link_down(self) -> None:
        """The system stops polling past the link-down time: the display says the link is down (and
        a vlt stops play: its `link` tilt); its next poll brings it up again and clears the tilt."""
        rig = self.rig
        self.link_downs = getattr(self, "link_downs", 0) + 1
        self.sas.silent.set()
        try:
            time.sleep(LINK_DOWN_S)
            s = rig.wait_screen(lambda s: s.get("link") == "down", 3.0)
            if rig.running == "vlt" and s.get("state") in ("idle", "credit"):
                raise Violation("sas_link", f"a vlt with its link down in {s.get('state')}: {s.get('msg')}")
        finally:
            self.sas.silent.clear()
        self.sas.drain()
        rig.wait_screen(lambda s: s.get("link") == "up", 3.0)
        self._link_heard()  # a linked cabinet's controller was silent too: its level again

    # --- the linked progressive's controller (80/86, exception 53) -------------------------------------------
    def _linked(self) -> bool:
        return _sas(self) and getattr(self, "link", None) is not None

    def _link_now(self) -> int | None | bool:
        """The console's word on the linked level (oracle.linked_state): False when not linked now."""
        return oracle.linked_state(self.rig.command("state"))

    @precondition(_linked)
    @rule(kind=st.sampled_from(LINK_KINDS),
          cents=st.one_of(st.integers(0, 10 ** 10 - 1), st.integers(37400, 37600), st.integers(99900, 100100),
                          st.sampled_from((0, 1, 24, 25, 26, 37524, 37525, 100024, 100025, 9999999999))),
          bad=st.sampled_from(LINK_MALFORMED), to_all=st.booleans())
    @logged
    def sas_progressive(self, kind: str, cents: int, bad: str = "group0", to_all: bool = False) -> None:
        """The progressive controller (docs/sas.md "The linked progressive"): `level` a new level 1
        (80 to address 0 or 86 to the machine; under the reset, over the ceiling, not whole credits);
        `silent` no broadcast past 5 s (the progressive tilt, play refused; 53 judged by the check),
        then back (the tilt cleared); `other` another group's level (ignored); `malformed` a broadcast
        the machine NACKs and keeps nothing of (`bad`); `cut` a new level while a game at the
        progressive's bet turns, the level the game plays for unchanged, then a power cut and the
        game completed at power-up (a hit pays the old level: checks.py judges it)."""
        rig, sas = self.rig, self.sas
        if _silent(self) or self._link_now() is False:
            return  # a RAM error, or not linked on this boot (vlt, another game: the link refused)
        h = sas.host
        if kind == "level":
            sas.cents = cents
            self.link_levels.add(cents)
            if to_all:
                sas.broadcast(to_all=True)
            elif sas.broadcast(to_all=False) not in (h.address, None):
                raise Violation("linked", f"the level {cents} cents to the machine: {sas.nacks}")
            rig.wait_polls(2, 1.0)
        elif kind == "silent":
            if getattr(self, "link_silences", 0) >= LINK_SILENCES:
                return
            self.link_silences = getattr(self, "link_silences", 0) + 1
            self._link_silent()
        elif kind in ("other", "malformed"):
            sas.quiet.set()  # the keep-alive's own broadcast would hide a level wrongly taken (< 1 s: no 53)
            try:
                self._link_ignored(kind, bad, cents)
            finally:
                sas.quiet.clear()
        else:
            self._link_cut(cents)

    def _link_ignored(self, kind: str, bad: str, cents: int) -> None:
        """Another group's level (ACK), or a malformed broadcast (NACK): nothing kept."""
        rig, sas = self.rig, self.sas
        h = sas.host
        if kind == "other":
            group = sas.group % 255 + 1
            before = self._link_now()
            with h.lock:
                r = h.progressive(group, [(1, (sas.cents + 2500) % 10 ** 10)], to_all=False)
            if r not in (h.address, None):
                raise Violation("linked", f"another group's ({group}) broadcast answered {r:02X}, not ACK")
            rig.wait_polls(2, 1.0)
            if self._link_now() != before:  # judged before the keep-alive broadcasts the group's again
                raise Violation("linked", f"another group's ({group}) level taken: {before} -> {self._link_now()}")
        else:
            self._link_malformed(bad, cents)

    def _link_silent(self) -> None:
        """No broadcast for more than 5 s: the progressive tilt, no level, play refused; then the
        controller back: the tilt cleared by its first broadcast."""
        rig, sas = self.rig, self.sas
        sas.quiet.set()
        try:
            time.sleep(oracle.LOST_S + 0.8)
            try:
                rig.wait_screen(lambda s: s.get("state") not in ("idle", "credit"), 2.0)
            except TimeoutError:
                pass
            oracle.linked_shown(rig.screen, rig.command("state"), None, "the controller silent 5.8 s")
            m0 = rig.console_json("meters json")["games_played"]
            if rig.screen.get("credits", 0) >= (rig.screen.get("bet") or 1):
                self._press("play")
                self._await_game_or_refusal()
                self._settle()
            if rig.console_json("meters json")["games_played"] != m0:
                raise Violation("linked", "a game played with no fresh level from the controller (its silence)")
        finally:
            sas.quiet.clear()
        self._link_heard()
        lines = rig.command("state")
        if "progressive" in oracle.tilt_kinds(lines):
            raise Violation("linked", f"the controller back, the progressive tilt still stands: {lines}")

    def _link_malformed(self, bad: str, cents: int) -> None:
        """A broadcast the machine must NACK with nothing kept (docs/sas.md: group 0, a level outside
        01-20, an amount not BCD, an 86 whose length is not 1 + 6n or with one bad level among good)."""
        rig, h, g = self.rig, self.sas.host, self.sas.group
        amount = bytes.fromhex(f"{(self.sas.cents + 2500 + cents % 1000) % 10 ** 10:010d}")
        body = {"group0": bytes([0x80, 0, 1]) + amount,
                "level0": bytes([0x80, g, 0]) + amount,
                "level21": bytes([0x80, g, 0x21]) + amount,
                "notbcd": bytes([0x80, g, 1]) + bytes([0x00, 0x1A, 0x00, 0x00, 0x00]),
                "length": bytes([0x86, 8, g, 1]) + amount + b"\x00",
                "length86short": bytes([0x86, 13, g, 1]) + amount + bytes([0x40]) + amount}[bad]
        msg = bytes([h.address]) + body
        before = self._link_now()
        with h.lock:
            h.flush()
            h.send(msg + crc(msg))
            r = h.read(1)
        if r and r[0] != 0x80 | h.address:
            raise Violation("linked", f"a malformed broadcast ({bad}: {msg.hex()}) answered {r.hex()}, not NACK")
        rig.wait_polls(2, 1.0)
        after = self._link_now()
        if after != before:
            raise Violation("linked", f"a malformed broadcast ({bad}: {msg.hex()}) moved the level {before} -> {after}")

    def _link_cut(self, cents: int) -> None:
        """A game at the progressive's bet; while its reels turn a new level (the game still plays for
        the level of its wager: console `state`); then the power cut, and the game completed at
        power-up, before the controller is heard again."""
        rig, sas = self.rig, self.sas
        bet = self.link["bet"]
        for _ in range(6):
            if rig.screen.get("bet") == bet or rig.screen.get("state") not in ("idle", "credit"):
                break
            self._press("bet_one")
        if rig.screen.get("bet") != bet or rig.screen.get("state") not in ("idle", "credit"):
            return
        self._insert(-(-max(bet - (rig.screen.get("credits") or 0), 0) // self._token_credits()))
        old = oracle.linked_level(sas.cents, self._denom(), progressive(rig.screen["id"]))
        n = rig.console_json("meters json")["games_played"] + 1
        self.plays = 1
        self._press("play")
        sas.cents = cents
        self.link_levels.add(cents)
        sas.broadcast(to_all=False)
        # the wager committed, its outcome not yet: the game plays for the level of its wager. (Once the
        # reels turn a game that did not hit keeps no level, and the display shows the new one:
        # firmware/game_books.py settle carries "lp" into a hit's record only.)
        lines = rig.command("state")
        if f"last game: #{n} bet {bet} committed, its outcome not yet" in lines and \
                oracle.linked_state(lines) != old:
            raise Violation("linked", f"a level broadcast after the wager changed the one the game plays for "
                                      f"({old} credits): {lines}")
        self._cut()
        self._boot()
        self._booted(None)
        # completed at power-up: a hit paid the level of its wager, not the one broadcast since
        oracle.linked_paid([g for g in rig.console_json("recall json")["games"] if g["n"] == n], {old},
                           "a power cut after the wager")

    # --- 94, a repeated poll, 21, 4C/4D, 8C and 95-99 ------------------------------------------------------
    @precondition(_sas)
    @rule()
    @logged
    def sas_handpay_reset(self) -> None:
        """94 in whatever state the sequence left: 02 (not in a hand pay) outside the handpay and
        jackpot states; in them 00, the lock paid as the attendant's key pays it (the hand pay
        counted like the key's: cancelled + jackpot move by its amount), where the state table gives
        the key `attendant_key`, else 01."""
        if _silent(self):
            return
        h = self.sas.host
        rig = self.rig
        with h.lock:
            state = rig.screen.get("state")
            lock = self._lock()
            d = h.checked(0x94, 5, with_crc=True)
        code = d[0]
        if state not in STEADY:
            if code == 0 and lock:
                self.hand_paid += lock[1]
                self.sas_did["clears"] += 1
            return
        locked = state in (states.HANDPAY, states.JACKPOT)
        want = 2 if not locked else (0 if states.action(state, states.KEY) == "attendant_key" else 1)
        if code != want:
            raise Violation("sas_94", f"94 in {state} (lock {lock}): answered {code:02X}, not {want:02X}")
        if code == 0:
            self.hand_paid += lock[1] if lock else 0
            self.sas_did["clears"] += 1 if lock else 0
            rig.wait_polls(2, 1.0)  # what the reset set off (a cash-out kept) under way before the check

    @precondition(_sas)
    @rule(poll=st.sampled_from(SAS_REPEATS))
    @logged
    def sas_repeat(self, poll: str) -> None:
        """A long poll sent again before any other poll (the system lost the reply: SAS 6.02 s. 3.2's
        implied NACK): the same reply, byte for byte, and an order carried out once (01: one `host`
        tilt in the log, then 02 enables)."""
        if _silent(self):
            return
        h = self.sas.host
        rig = self.rig
        if poll == "01/02":
            msg = bytes([h.address, 0x01]) + crc(bytes([h.address, 0x01]))
            n = 1
        else:
            msg = bytes([h.address, int(poll, 16)])
            n = 36 if poll == "1C" else 28
        before = [e for e in rig.console_json("events json").get("events") or [] if "host" in str(e[3])]
        with h.lock:
            h.flush()
            h.send(msg)
            first = h.read(n)
            h.send(msg)
            again = h.read(n)
        if first != again or len(first) != n:
            raise Violation("sas_repeat", f"{poll} sent twice: {first.hex()} then {again.hex()}")
        if poll != "01/02":
            m = rig.console_json("meters json")
            d = first[2:-2]
            got = [bcd(d[i:i + 4]) for i in range(0, len(d), 4)]
            want = [m["coin_in"], m["coin_out"], oracle.drop(m), m["jackpot"], m["games_played"],
                    m["games_won"], m["door_main"], m["power_resets"]] if poll == "1C" else \
                [m["cashout"], m["coin_in"], m["coin_out"], oracle.drop(m), m["jackpot"],
                 m["games_played"]]
            if got != [v % 10 ** 8 for v in want]:
                raise Violation("sas_repeat", f"{poll} read {got}, the books {want}")
            return
        after = [e for e in rig.console_json("events json").get("events") or [] if "host" in str(e[3])]
        new = [e for e in after if e not in before]
        if first == bytes([h.address]) and len(new) != 1:
            raise Violation("sas_repeat", f"01 sent twice, taken: {len(new)} host events {new}")
        if first != bytes([h.address]) and new:
            raise Violation("sas_repeat", f"01 sent twice, refused: host events {new}")
        if h.command(0x02) != h.address and rig.screen.get("state") != "ramerror":
            raise Violation("sas_repeat", f"02 after the repeated 01 refused in {rig.screen.get('state')}")
        rig.wait_polls(2, 1.0)

    @precondition(lambda self: _sas(self) and getattr(self, "signatures", 0) < ROM_SIGNATURES)
    @rule(seed=st.integers(0, 0xFFFF), play=st.booleans())
    @logged
    def sas_rom_signature(self, seed: int, play: bool) -> None:
        """21 with a random seed, a game played while the machine computes (play goes on), then the
        system's general polls until the signature comes: CRC-16/KERMIT of the image as stored, the
        seed its start (crccheck's, independent of the firmware's CRC); the exceptions polled
        meanwhile go to the check as the drain's do."""
        if _silent(self):
            return
        from crccheck.crc import CrcKermit

        self.signatures = getattr(self, "signatures", 0) + 1
        h = self.sas.host
        rig = self.rig
        image = open(rig.fw.command()[0], "rb").read()
        want = CrcKermit.calc(image, int(format(seed, "016b")[::-1], 2))  # crccheck takes the seed unreflected
        self.sas.silent.set()  # the keep-alive's general polls would take the signature: the rule polls
        try:
            with h.lock:
                answer = h.command(0x21, seed.to_bytes(2, "little"))
            if answer != h.address:
                raise Violation("sas_21", f"21 seed {seed:04X}: answered {answer}, not ACK")
            if play:  # a game while the machine computes (within the link's 5 s)
                self.plays = 1
                self._insert(-(-max(rig.screen.get("bet") or 1, 1) // self._token_credits()))
                self._press("play")
                self._await_game_or_refusal()
                self._settle()
            deadline = time.monotonic() + 120
            r = b""
            while time.monotonic() < deadline:
                with h.lock:
                    r = h.general_poll_reply(6)
                    if len(r) == 1 and r[0]:
                        self.sas.codes.append(r[0])  # for the check, as the drain's
                if len(r) == 6:
                    break
                time.sleep(0.05)
            else:
                raise Violation("sas_21", f"21 seed {seed:04X}: no signature in 120 s")
        finally:
            self.sas.silent.clear()
        if r[:2] != bytes([h.address, 0x21]) or crc(r[:-2]) != r[-2:] or int.from_bytes(r[2:4], "little") != want:
            raise Violation("sas_21", f"21 seed {seed:04X}: {r.hex()}, the image's {want:04X}")

    @precondition(_sas)
    @rule(code=st.sampled_from((0xFF, 0x00, 0x01)))
    @logged
    def sas_validation(self, code: int) -> None:
        """4C with id 0 (read only) and 4D (FF look ahead, 00 read, 01 the oldest kept). Without a coupon
        memory (a casino cabinet) both are ignored: no answer, nothing changes. With one: 4C's id and
        sequence are `validation json`'s; 4D's record is the oldest coupon on paper the system has not
        read (00, FF), its number, cents and sequence as `coupons json` lists it; 00 acknowledges it
        (as `coupons ack`), FF leaves it."""
        if _silent(self):
            return
        h = self.sas.host
        rig = self.rig
        vlt = rig.running == "vlt"
        recs = rig.console_json("coupons json") if vlt else None
        v = rig.console_json("validation json") if vlt else None
        with h.lock:
            id_reply = h.long_poll(0x4C, bytes(6), reply=10)
            info = h.long_poll(0x4D, bytes([code]), reply=35)
        if not vlt:
            if id_reply or info:
                raise Violation("sas_validation", f"4C/4D without a coupon memory answered {id_reply.hex()} {info.hex()}")
            return
        for r, n, cmd in ((id_reply, 10, 0x4C), (info, 35, 0x4D)):
            if len(r) != n or r[:2] != bytes([h.address, cmd]) or crc(r[:-2]) != r[-2:]:
                raise Violation("sas_validation", f"{cmd:02X}: reply {r.hex()}")
        got = (int.from_bytes(id_reply[2:5], "little"), int.from_bytes(id_reply[5:8], "little"))
        if got != (v["vid"], v["seq"]):
            raise Violation("sas_validation", f"4C read {got}, validation json {v}")
        d = info[2:-2]
        on_paper = [r for r in recs if r["st"] != "owed"]
        if code in (0x00, 0xFF):
            pick = [r for r in on_paper if r["st"] == "issued"][:1]
        else:  # index 1: the oldest record kept, when it is on paper
            pick = recs[:1] if recs and recs[0]["st"] != "owed" else []
        if not pick:
            if d != bytes(31):
                raise Violation("sas_validation", f"4D {code:02X} with no such record: {d.hex()}")
            return
        rec = pick[0]
        seen = (bcd(d[9:17]), bcd(d[17:22]), bcd(d[22:24]), bcd(d[24:25]))
        if seen != (int(rec["n"][2:]), rec["c"], rec["s"] % 10 ** 4, int(rec["n"][:2])):
            raise Violation("sas_validation", f"4D {code:02X}: {seen}, the record {rec}")
        after = {r["s"]: r["st"] for r in rig.console_json("coupons json")}
        if code == 0x00:
            if after.get(rec["s"]) == "issued":
                raise Violation("sas_validation", f"4D 00 read record {rec['s']} and left it unread")
            self.kept.pop(rec["s"], None)
        elif rec["st"] == "issued" and after.get(rec["s"]) != "issued":
            raise Violation("sas_validation", f"4D {code:02X} acknowledged record {rec['s']}")

    @precondition(_sas)
    @rule(kind=st.sampled_from(SAS_TOURNAMENT), credits=st.integers(0, 99999999), minutes=st.integers(0, 99),
          pulses=st.sampled_from((0, 0, 1)))
    @logged
    def sas_tournament(self, kind: str, credits: int, minutes: int, pulses: int) -> None:
        """8C and 95-99 in whatever state the sequence left. start: the administrator starts a
        tournament on the console (named for the model, which then knows the recall record it started
        after). enter: the system's 8C enter, refused on a cabinet without the operator's published
        rules (SAS_TOURNAMENT: A0's tournament bit says), nothing changes. exit: 8C exit, taken exactly
        where the state table takes host_tournament, a tournament runs and no entry is under way, the
        tournament then ended. meters: 95-98 and 99 read the tournament games of the recall since the
        start (played, won, wagered, won), when the recall holds them all."""
        if _silent(self):
            return
        h = self.sas.host
        rig = self.rig
        lines = rig.command("tournament")
        running = lines[:1] != ["no tournament"]
        if kind == "start":
            if running:
                return
            n0 = max([g["n"] for g in rig.console_json("recall json")["games"]] + [0])
            name = f"SAS{n0}"
            rig.panel.set_pin("key_audit", 1)
            time.sleep(0.1)  # past the key's debounce
            out = rig.command(f"tournament start 1 {max(credits % 1000, 1)} {minutes % 5 + 1} 30 2026-11-27 2 {name}")
            self._audit_key_back()
            if not any(ln.startswith("error") for ln in out):  # the console's own checks are rules.py's
                self.sas_tour = (name, n0)
            return
        if kind == "meters":
            self._sas_tour_meters(lines)
            return
        enter = kind == "enter"
        data = b"\x00\x01" + bytes.fromhex(f"{minutes:02d}00") + bytes.fromhex(f"{max(credits, 1) if enter else 0:08d}") \
            + bytes([pulses if enter else 0])
        with h.lock:
            state = rig.screen.get("state")
            entry = any(ln.startswith("tournament entry") for ln in rig.command("state"))
            feature = h.checked(0xA0, 9, b"\x00\x00")[2] & 0x08  # game 0: the machine, a game offered or not
            answer = h.command(0x8C, data)
        after = rig.command("tournament")
        if enter:
            if feature or answer != 0x81 or after != lines:
                raise Violation("sas_tournament", f"8C enter without published rules (A0 {feature:02X}): answered "
                                                  f"{answer}, tournament {lines[:1]} -> {after[:1]}")
            return
        if state not in STEADY:
            return
        taken = states.action(state, states.HOST_TOURNAMENT) is not None and running and not entry
        if answer != (0x01 if taken else 0x81):
            raise Violation("sas_tournament", f"8C exit in {state} (tournament {running}, entry {entry}): answered "
                                              f"{answer}, the state table and the books {'take' if taken else 'refuse'} it")
        if taken and after[:1] != ["no tournament"]:
            raise Violation("sas_tournament", f"8C exit taken, the tournament still runs: {after[:2]}")

    def _sas_tour_meters(self, lines: list[str]) -> None:
        h = self.sas.host
        rig = self.rig
        got = []
        with h.lock:
            for cmd in (0x95, 0x96, 0x97, 0x98):
                d = h.checked(cmd, 10, b"\x00\x01")
                got.append(bcd(d[2:6]))
            d = h.checked(0x99, 22, b"\x00\x00")
        if d[:2] != b"\x00\x00" or [bcd(d[2 + 4 * i:6 + 4 * i]) for i in range(4)] != got:
            raise Violation("sas_tournament", f"99 {d.hex()} is not 95-98's {got}")
        mark = getattr(self, "sas_tour", None)
        if mark is None or not lines[0].startswith(f"TOURNOI {mark[0]} :"):
            return  # not the model's tournament (none, another's, a RAM clear): not judged
        games = [g for g in rig.console_json("recall json")["games"] if g["n"] > mark[1]]
        newest = max([g["n"] for g in games] + [mark[1]])
        if len(games) != newest - mark[1] or any(not g.get("tour") for g in games):
            return  # the recall no longer holds them all
        want = [len(games), sum(1 for g in games if g["win"]), sum(g["bet"] for g in games),
                sum(g["win"] for g in games)]
        if got != want:
            raise Violation("sas_tournament", f"95-98 read {got}, the tournament's games since the start {want}")


    # --- ticket in (70, 71, exceptions 67/68: docs/sas.md "Ticket in") ----------------------------------------
    def _ticket_back(self, number: str, back0: int, timeout: float) -> bool:
        """Whether the validator handed the ticket back within `timeout` (its peer's own record)."""
        peer = self.rig.bills
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(peer.tickets_returned) > back0 or number in peer.tickets_stacked:
                return number in peer.tickets_returned
            self.rig.wait_polls(1, 0.5)
        return False

    @precondition(lambda self: TICKETS and _sas(self) and self._calm() and self.rig.running == "casino"
                  and getattr(self, "ticket_cycles", 0) < TICKET_CYCLES)
    @rule(answer=st.sampled_from(TICKET_ANSWERS), credits=st.integers(1, 40))
    @logged
    def sas_ticket_in(self, answer: str, credits: int) -> None:
        """A barcoded ticket presented to a casino's ticket reader (settings.json TICKET_IN, written
        by the rules for every casino boot): 67 reported, 70 reads its number, and the system
        redeems it (71 code 00: credited once it is in the validator's cash box, then 68), rejects
        it (80: handed back, nothing credited), says nothing (handed back after 10 s, 88), or the
        power goes right after its 71 (credited, or of unknown fate and settled by the attendant
        from the cash box). The model's own count: the ticket's credits move `ticket_in` exactly
        when the peer's cash box holds it; 2F reads the same meter."""
        if _silent(self):
            return
        rig = self.rig
        if "config" in oracle.tilt_kinds(rig.command("state")):
            # the configuration in doubt: the settings are not in force, TICKET_IN with them, so this
            # boot has no ticket reader (firmware/startup.py); a validator that kept its power from the
            # last boot is never polled and hands the ticket back only after its own escrow time
            return
        peer = rig.bills
        h = self.sas.host
        self.ticket_cycles = getattr(self, "ticket_cycles", 0) + 1
        number = f"{next(_NUMBERS):018d}"
        cents = credits * self._denom()
        before = rig.console_json("meters json")
        back0 = len(peer.tickets_returned)
        if not peer.insert_ticket(number):
            return  # the reader is inhibited: the cabinet takes no money now (no ticket to judge)
        deadline = time.monotonic() + 3.0
        seen = False
        while time.monotonic() < deadline and not seen:
            with h.lock:
                self.sas.drain()
                seen = 0x67 in self.sas.codes
            if not seen and len(peer.tickets_returned) > back0:
                break  # handed straight back (money in refused, a tilt, a config tilt: no reader)
        if not seen:
            if not self._ticket_back(number, back0, 3.0):
                raise Violation("ticket", f"ticket {number}: neither 67 nor handed back")
            after = rig.console_json("meters json")
            oracle.ticket_in(number, cents, credits, before, after, False, True, self._ticket_meters(), "refused")
            return
        d = h.variable(0x70)
        if d != b"\x00" + bytes(5) + b"\x00" + bytes.fromhex(number):
            raise Violation("ticket", f"70 read {d.hex()} for ticket {number}")
        body = bytes.fromhex(f"{cents:010d}") + b"\x00" + bytes.fromhex(number)
        if answer == "silence":
            if not self._ticket_back(number, back0, TICKET_WAIT_S):
                raise Violation("ticket", f"ticket {number}: no 71 for {TICKET_WAIT_S} s and not handed back")
        elif answer == "reject":
            r = h.variable(0x71, b"\x80" + body, multi=True)
            if r[0] != 0x80 or not self._ticket_back(number, back0, 3.0):
                raise Violation("ticket", f"71 rejected ticket {number}: answered {r.hex()}, back {peer.tickets_returned}")
        else:
            r = h.variable(0x71, b"\x00" + body, multi=True)
            if r[0] not in (0x40, 0x84, 0x87):  # pending; over the credit limit; money in refused just now
                raise Violation("ticket", f"71 redeem {cents} cents for ticket {number}: answered {r.hex()}")
            if answer == "cut" and r[0] == 0x40:
                self._settle_cut_ticket(number)
            elif not self._ticket_back(number, back0, 3.0) and number not in peer.tickets_stacked:
                raise Violation("ticket", f"ticket {number} ({r[0]:02X}): neither stacked nor handed back")
            elif r[0] == 0x40:
                rig.wait_screen(lambda s: s.get("credits", 0) >= before["credits"] + credits or number not in
                                peer.tickets_stacked, 5.0)
        after = rig.console_json("meters json")
        oracle.ticket_in(number, cents, credits, before, after, number in peer.tickets_stacked,
                         number in peer.tickets_returned, self._ticket_meters(), answer)
        rig.wait_polls(2, 1.0)

    def _ticket_meters(self) -> dict[int, int]:
        """2F for game 0: the tickets' credits (28), count (11) and cents (0D), decoded here."""
        d = self.sas.host.variable(0x2F, b"\x00\x00\x28\x11\x0d", multi=True)
        return {d[i]: bcd(d[i + 1:i + 5]) for i in range(2, len(d), 5)}

    def _settle_cut_ticket(self, number: str) -> None:
        """The power goes right after the 71 (the validator's supply with it): after the power-up
        the ticket is credited (its stack's commit held) or of unknown fate; the attendant then says
        what the cash box holds (`ticket stacked|returned`)."""
        rig = self.rig
        self._cut(validator_too=True, held="front")
        self._boot()
        self._booted(None)
        rig.wait_polls(3, 2.0)
        tilts = oracle.tilt_kinds(rig.command("state"))
        if "ticket" in tilts:
            word = "stacked" if number in rig.bills.tickets_stacked else "returned"
            out = rig.command("ticket " + word)
            if not out or "settled as " + word not in out[0]:
                raise Violation("ticket", f"ticket {word} answered {out!r}")


    @precondition(_sas)
    @rule(kind=st.sampled_from(SAS_CLOCK), delta=st.integers(-7200, 7200))
    @logged
    def sas_clock(self, kind: str, delta: int) -> None:
        """The system sets the clock delta seconds from the cabinet's (7F, Québec time), then reads
        it (7E): taken where the profile gives the system the clock (vlt) and read back as set plus
        the seconds the step took, through a power cut too (`cut`); refused under casino and the
        clock as it was. A date that does not exist (`bogus`, 31 April) is refused everywhere; `all`:
        sent to every machine at once (address 0), unanswered and taken alike."""
        if _silent(self):
            return
        rig = self.rig
        h = self.sas.host
        t0 = time.monotonic()
        before = self._clock()
        target = before + datetime.timedelta(seconds=delta)
        if kind == "bogus":
            data = bytes.fromhex(target.strftime("0431%Y%H%M%S"))
        elif _ambiguous(target) or _ambiguous(before):
            return  # an hour a daylight-time change repeats or skips: a local time that names no one instant
        else:
            data = bytes.fromhex(target.strftime("%m%d%Y%H%M%S"))
        taken = rig.running == "vlt" and kind != "bogus"
        if kind == "all":  # to every machine at once (address 0): never answered
            msg = bytes([0, 0x7F]) + data
            with h.lock:
                h.flush()
                h.send(msg + crc(msg))
                h.settle()  # a silence ends it
                answer = h.read(1)[:1] or None  # nothing, or a chirp: never an answer
            if answer not in (None, bytes([h.address])):
                raise Violation("sas_clock", f"7F to address 0 answered {answer!r}")
        else:
            answer = h.command(0x7F, data)
        if kind != "all" and answer != (h.address if taken else h.address | 0x80):
            raise Violation("sas_clock", f"7F {data.hex()} under {rig.running}: answered {answer}, "
                                         f"{'ACK' if taken else 'NACK'} expected")
        if kind == "cut":
            self._cut()
            self._boot()
            self._booted(None)
            if _silent(self):
                return
        got = self._clock()
        want = target if taken else before
        late = _utc(got) - _utc(want)
        if not -1 <= late <= time.monotonic() - t0 + 1:
            raise Violation("sas_clock", f"7E read {got} after 7F {data.hex()} under {rig.running} "
                                         f"({kind}): {want} expected, {time.monotonic() - t0:.1f} s later")

    def _clock(self) -> datetime.datetime:
        d = self.sas.host.checked(0x7E, 11)
        return datetime.datetime.strptime(d.hex(), "%m%d%Y%H%M%S")


QUEBEC = zoneinfo.ZoneInfo("America/Montreal")  # firmware/localtime.py's zone, from the IANA database


def _ambiguous(local: datetime.datetime) -> bool:
    """Whether a local time is repeated or skipped by a daylight-time change (fold 0 and 1 differ)."""
    return local.replace(tzinfo=QUEBEC, fold=0).utcoffset() != local.replace(tzinfo=QUEBEC, fold=1).utcoffset()


def _utc(local: datetime.datetime) -> float:
    return local.replace(tzinfo=QUEBEC).timestamp()


# the tilt each of the system's orders sets (firmware/sas/control.py): 06/07 only inhibits the validator
ORDER_TILTS = {"01/02": "host", "09": "sas-game", "0A/0B": "maintenance"}


# --- what a vlt's coupon carries and who numbers it (SAS 7B-7D, 57/58: docs/sas.md) ----------------------
# A mixin of sim/fuzz/machine.py beside SasRules. The model is written here from SAS 6.02's layouts
# (docs/sas.md "Ticket data and system validation"), not from the firmware: what a valid 7C/7D sets,
# what 7B reports (bit 0 the printer, bit 15 a validation id in force while the machine numbers its
# coupons; the vlt's one day in force, S-13.1, r. 7, s. 14), what a cash-out under system validation
# asks (57: its cents) and what the coupon then carries (58's id and number); checked against the
# console's `validation json`, the printer's paper and the books' meters.
TICKET_KINDS = ("7D", "7D", "7C", "7B", "7D_all", "7D_ask", "bad", "owed")
VALIDATION_KINDS = ("number", "number", "refuse", "early", "cut_asked", "cut_read", "cut_answered", "timeout")
TEXTS = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789-'.", max_size=40)
TIMEOUTS = 1  # the no-answer rule waits out the 10 s of SAS 6.02 s. 15.8: once a sequence
TICKET_KEYS = ("loc", "a1", "a2")
BUSY = 0x00  # the busy reply's command byte (SAS 6.02 s. 4.1: the address, then 00, no CRC)
_NUMBERS = iter(range(10 ** 15, 10 ** 16))  # the system's validation numbers: never one given twice


def _bcd(value: int, n: int) -> bytes:
    return bytes.fromhex(f"{value:0{2 * n}d}")


def _vlt_sas(self) -> bool:
    return _sas(self) and (self.rig is None or self.rig.running == "vlt")


class SasTicketRules:
    def _typed_m(self, cmd: int, data: bytes, to_all: bool = False, reply: int = 5) -> bytes:
        """A type M poll (length, data, CRC); the reply's first `reply` bytes (a busy one is 2)."""
        h = self.sas.host
        msg = bytes([0 if to_all else h.address, cmd, len(data)]) + data
        msg += crc(msg)
        with h.lock:
            h.flush()
            h.send(msg)
            if to_all:
                h.settle()  # type G: no answer; a silence ends it
                return h.read(1)  # nothing, or a chirp: never an answer
            r = h.read(2)
            if len(r) == 2 and r[1] == BUSY:
                return r
            return r + h.read(reply - 2)

    def _flag(self, cmd: int, data: bytes) -> str:
        """7C/7D: "00" / "01" (the status flag, its frame checked), "busy" or "none"."""
        r = self._typed_m(cmd, data)
        if not r:
            return "none"
        if r == bytes([self.sas.host.address, BUSY]):
            return "busy"
        if len(r) != 5 or r[:2] != bytes([self.sas.host.address, cmd]) or crc(r[:3]) != r[3:]:
            raise Violation("sas_ticket", f"{cmd:02X}: a reply that is no flag {r.hex()}")
        return f"{r[2]:02x}"

    def _7b(self, mask: int = 0, bits: int = 0, days: int = 0, rdays: int = 0) -> bytes:
        """7B; the reply's data after its length (0A), or b"" (no answer), or "busy"."""
        data = mask.to_bytes(2, "little") + bits.to_bytes(2, "little") + _bcd(days, 2) + _bcd(rdays, 2)
        r = self._typed_m(0x7B, data, reply=15)
        if not r or r == bytes([self.sas.host.address, BUSY]):
            return r
        if len(r) != 15 or r[:3] != bytes([self.sas.host.address, 0x7B, 0x0A]) or crc(r[:13]) != r[13:]:
            raise Violation("sas_ticket", f"7B: a reply not of its layout {r.hex()}")
        return r[3:13]

    def _7b_expected(self, v: dict) -> bytes:
        """7B's data as the layout and the model give it: no asset number, the printer (bit 0), the
        validation id in force while the machine numbers its coupons (bit 15), the vlt's one day, the
        restricted days the system set."""
        bits = 0x0001 | (0x8000 if v["vid"] and v["mode"] == "secure" else 0)
        return bytes(4) + bits.to_bytes(2, "little") + _bcd(1, 2) + _bcd(v["ticket"]["rdays"], 2)

    @precondition(_vlt_sas)
    @rule(kind=st.sampled_from(TICKET_KINDS), host=st.integers(0, 0xFFFF), days=st.integers(0, 255),
          texts=st.lists(TEXTS, max_size=3), codes=st.lists(st.sampled_from((0, 1, 2, 0x10, 0x20)), max_size=4),
          rdays=st.sampled_from((0, 1, 7, 30, 9999)))
    @logged
    def sas_ticket_data(self, kind: str, host: int, days: int, texts: list[str], codes: list[int],
                        rdays: int) -> None:
        """The system sets what the coupon carries: 7D (host id, days, the texts; to this machine, to
        every machine, or asking only), 7C (texts by their codes), 7B (the expirations), a text too
        long (refused, nothing kept), or a change while a coupon is owed behind a printer at fault
        (busy when it would print differently; the coupon prints again as it began). What is kept is
        the model's; what 7B reports is the layout's."""
        rig = self.rig
        if rig.running != "vlt":  # no coupon memory: not configured for validation, no answer
            if self._flag(0x7D, b"\x01\x00") != "none" or self._7b() != b"":
                raise Violation("sas_ticket", f"a {rig.running} cabinet answered 7D or 7B")
            return
        self._settle()
        v = rig.console_json("validation json")
        old = v["ticket"]
        new = dict(old)
        recs = rig.console_json("coupons json")
        owed = bool(recs) and recs[-1]["st"] == "owed"  # behind a printer at fault: it prints again as it began
        enc = [t.encode() for t in texts]
        if kind in ("7D", "7D_all", "bad", "owed"):
            if kind == "bad":
                enc = (enc + [b""])[:1] + [b"X" * (41 + days % 20)]  # a text past 40 characters
            data = host.to_bytes(2, "little") + bytes([days]) + b"".join(bytes([len(t)]) + t for t in enc)
            new["host"], new["days"] = host, days or 9999  # 00: never expires
            for key, t in zip(TICKET_KEYS, enc):
                if t:
                    new[key] = t.decode()
        elif kind == "7C":
            data = b""
            for i, code in enumerate(codes):
                t = enc[i % len(enc)] if enc else b""
                t = t[:16] if code > 2 else t
                data += bytes([code, len(t)]) + t
                if code <= 2:
                    new[TICKET_KEYS[code]] = t.decode()
        valid = kind != "bad"
        if kind == "owed":
            self._ticket_while_owed(data, old, new)
            return
        if kind == "7B":
            cash = (0, 1, 2, 30, 9999)[days % 5]  # 0000: no change, 9999: never expires
            got = self._7b(days=cash, rdays=rdays)
            if cash:
                new["days"] = cash
            if rdays:
                new["rdays"] = rdays
            after = rig.console_json("validation json")
            if got != self._7b_expected(after):
                raise Violation("sas_ticket", f"7B read {got.hex()}, the layout and {after} give "
                                              f"{self._7b_expected(after).hex()}")
        elif kind == "7D_ask":
            flag = self._flag(0x7D, b"")
            if flag not in ("00", "01") or flag == "00" and old != {"host": 0, "days": 0, "rdays": old["rdays"],
                                                                    "loc": "", "a1": "", "a2": ""}:
                raise Violation("sas_ticket", f"7D of length 00 answered {flag} with {old} in force")
            return
        # a coupon owed is printed again as it began: a change of its texts waits (busy; to every
        # machine at once, no answer: not taken)
        waits = valid and owed and kind != "7B" and tuple(new[k] for k in TICKET_KEYS) != tuple(old[k] for k in TICKET_KEYS)
        if kind == "7D_all":
            self._typed_m(0x7D, data, to_all=True)
            rig.wait_polls(2, 1.0)
        elif kind != "7B":
            flag = self._flag(0x7D if kind != "7C" else 0x7C, data)
            if flag != ("busy" if waits else "01" if valid else "00"):
                raise Violation("sas_ticket", f"{kind} {data.hex()} answered {flag}, {'valid' if valid else 'not'}"
                                              f"{', a coupon owed' if owed else ''}")
        if waits:
            valid = False  # nothing kept
        got = rig.console_json("validation json")["ticket"]
        if got != (new if valid else old):
            raise Violation("sas_ticket", f"{kind} {data.hex() if kind != '7B' else ''}: kept {got}, the model "
                                          f"{new if valid else old} (was {old})")

    def _ticket_while_owed(self, data: bytes, old: dict, new: dict) -> None:
        """A coupon owed behind a printer out of paper: a 7D that would print it differently is busy
        (nothing kept); the coupon then prints again as it began; the 7D is taken afterwards."""
        rig = self.rig
        s = rig.screen
        if not s.get("credits") or s.get("state") not in ("idle", "credit"):
            return
        n = len(rig.printer.tickets)
        rig.printer.paper_out_after(0)
        self._press("cashout")
        try:
            rig.wait_screen(lambda s: s.get("state") == "payout", 3.0)
        except TimeoutError:
            rig.printer.fix()
            return  # not cashed out (a refusal the cash-out rules judge): nothing owed to test against
        printed = tuple(old[k] for k in TICKET_KEYS)
        differs = tuple(new[k] for k in TICKET_KEYS) != printed
        flag = self._flag(0x7D, data)
        if flag != ("busy" if differs else "01"):
            raise Violation("sas_ticket", f"7D while a coupon is owed answered {flag}; it "
                                          f"{'would' if differs else 'would not'} print differently")
        kept = rig.console_json("validation json")["ticket"]
        if differs and kept != old:
            raise Violation("sas_ticket", f"a busy 7D changed {old} -> {kept}")
        rig.printer.fix()
        self._key()
        self._settle()
        deadline = time.monotonic() + 20
        while not rig.printer.issued()[n:] and time.monotonic() < deadline:
            if "printer" in (rig.screen.get("say") or []):  # a status request missed on a loaded host
                self._key()
            time.sleep(0.1)
        done = [t for t in rig.printer.tickets[n:] if t.complete]
        if not done:
            raise Violation("sas_ticket", "the coupon owed never printed once the printer was fixed")
        for k, text in zip(TICKET_KEYS, printed):
            if text and text not in done[-1].lines:
                raise Violation("sas_ticket", f"the coupon printed without its {k} {text!r}: {done[-1].lines}")
        if differs and self._flag(0x7D, data) != "01":
            raise Violation("sas_ticket", "the 7D refused while the coupon was owed is refused once it printed")

    # --- system validation -----------------------------------------------------------------------------------
    @precondition(_vlt_sas)
    @rule(kind=st.sampled_from(VALIDATION_KINDS), sid=st.integers(1, 99))
    @logged
    def sas_system_validation(self, kind: str, sid: int) -> None:
        """The system puts the machine into system validation (7B: bit 15 cancelled), a cash-out asks
        for its number (exception 57, the cash-out read by 57), and the system answers it (58: the
        coupon prints with that number, the credits leave), refuses it (the credits stay), sends it
        before reading 57 (rejected, the cash-out still waits) or never answers (given up after 10 s,
        the credits stay); a power cut after the request, after the read or after the answer (the same
        request asked again; one number on paper for the coupon). Then 4C takes the machine back to
        its own numbers."""
        rig = self.rig
        if rig.running != "vlt":
            h = self.sas.host
            if h.long_poll(0x57, reply=1) != b"" or self._7b(mask=0x8000) != b"":
                raise Violation("sas_validation", f"a {rig.running} cabinet answered 57 or 7B")
            return
        self._settle()
        v = rig.console_json("validation json")
        s = rig.screen
        if not v["vid"] or v["stop"] or s.get("state") not in ("idle", "credit") or \
                (s.get("say") or [])[:1] == ["tilt"]:
            return  # a cash-out would not be asked (its refusals are the cash-out rules' to judge)
        if kind == "timeout" and getattr(self, "sv_timeouts", 0) >= TIMEOUTS:
            kind = "refuse"
        if self._7b(mask=0x8000)[4:6] != b"\x01\x00" or rig.console_json("validation json")["mode"] != "system":
            raise Violation("sas_validation", "7B with bit 15 cancelled did not put the machine in system validation")
        self._validate(kind, sid)
        r = self.sas.host.checked(0x4C, 10, v["vid"].to_bytes(3, "little") + bytes(3))
        if int.from_bytes(r[:3], "little") != v["vid"] or rig.console_json("validation json")["mode"] != "secure":
            raise Violation("sas_validation", f"4C {v['vid']} answered {r.hex()}: not back to its own numbers")

    def _asked(self, timeout: float = 3.0) -> dict | None:
        deadline = time.monotonic() + timeout
        while True:
            a = self.rig.console_json("validation json")["asked"]
            if a is not None or time.monotonic() > deadline:
                return a
            time.sleep(0.1)

    def _read_57(self, cents: int) -> None:
        got = self.sas.host.checked(0x57, 10)
        if got != b"\x00" + _bcd(cents, 5):
            raise Violation("sas_validation", f"57 read {got.hex()}: a cashable ticket of {cents} cents asked")

    def _58(self, sid: int, number: int) -> bytes:
        return self.sas.host.checked(0x58, 5, _bcd(sid, 1) + _bcd(number, 8))

    def _power_cycle(self) -> None:
        self._cut()
        self._boot(system=False)
        self._booted(None)

    def _validate(self, kind: str, sid: int) -> None:
        rig = self.rig
        if not rig.screen.get("credits"):
            self._insert(1)
            self._settle()
        credits = rig.screen.get("credits", 0)
        if not credits or rig.screen.get("state") not in ("idle", "credit"):
            return
        cents = credits * self._denom()
        n = len(rig.printer.tickets)
        rig.printer.fix()  # a fault the printer rule left for the next ticket: seen to first (this rule's is the number)
        self._press("cashout")
        asked = self._asked()
        if asked is None or asked["k"] != credits or asked["c"] != cents:
            raise Violation("sas_validation", f"a cash-out of {credits} credits under system validation asked {asked}")
        if rig.screen.get("credits") != credits:
            raise Violation("sas_validation", "the credits left the meter before the system's number")
        if kind == "cut_asked":
            self._power_cycle()
        if kind == "early" and self._58(sid, next(_NUMBERS)) != b"\x81":
            raise Violation("sas_validation", "a 58 before the cash-out was read (57) was not rejected (81)")
        self._read_57(cents)
        if kind == "cut_read":
            self._power_cycle()
            self._read_57(cents)  # the same request, asked again
        if kind == "timeout":
            self.sv_timeouts = getattr(self, "sv_timeouts", 0) + 1
            t0 = time.monotonic()
            while self._asked(0) is not None and time.monotonic() - t0 < 25:
                time.sleep(0.25)
            waited = time.monotonic() - t0  # 10 s of the firmware's clock, and a loaded host's slack
            if self._asked(0) is not None:
                raise Violation("sas_validation", f"no answer for {waited:.1f} s and the cash-out still waits")
        elif kind == "refuse":
            if self._58(0, 0) != b"\x00":
                raise Violation("sas_validation", "a refusal (58, id 00) was not acknowledged")
        else:
            number = next(_NUMBERS)
            if self._58(sid, number) != b"\x00":
                raise Violation("sas_validation", f"58 {sid:02d} {number} was not acknowledged")
            if kind == "cut_answered":
                self._power_cycle()
            want = f"{sid:02d}{number:016d}"
            deadline = time.monotonic() + 20
            while not [t for t in rig.printer.tickets[n:] if t.complete] and time.monotonic() < deadline:
                if "printer" in (rig.screen.get("say") or []):  # a status request missed on a loaded host
                    self._key()
                time.sleep(0.1)
            numbers = {t.number for t in rig.printer.tickets[n:] if t.number}
            if numbers != {want}:
                raise Violation("sas_validation", f"on paper {numbers}, the system's number {want} only")
            self._settle()
            if rig.screen.get("credits") != 0:
                raise Violation("sas_validation", f"{credits} credits printed, {rig.screen.get('credits')} left")
            return
        # refused, or not answered: the credits stay, nothing printed
        self._settle()
        if rig.screen.get("credits") != credits or [t for t in rig.printer.tickets[n:] if t.number]:
            raise Violation("sas_validation", f"{kind}: credits {credits} -> {rig.screen.get('credits')}, "
                                              f"{len(rig.printer.tickets) - n} tickets")
