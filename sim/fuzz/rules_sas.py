"""The fuzz campaign's rules for the central system on the SAS line (docs/sas.md): meter polls, the
system's orders in whatever state the sequence left, bad CRCs, polls to another address, partial
frames, floods of bytes, a system that stops polling past the link-down time; and the check after
every step (`_check_sas`: 1C and 1A against the books, the exceptions reported once). The system is
the project's own host (sim/sas_host.py, written from SAS 6.02, not from the firmware); a thread
drains the general polls every `KEEP_S` (the link stays up: a vlt plays only with it) and keeps the
codes for the check. A mixin of sim/fuzz/machine.py."""
from __future__ import annotations

import threading
import time

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from firmware import states
from sim.fuzz import oracle
from sim.fuzz.inputs import SAS_METER_CODES, SAS_METER_POLLS, SAS_NOISE, SAS_ORDERS, SAS_RAISED
from sim.fuzz.oracle import Violation
from sim.fuzz.rules import logged
from sim.sas_host import SasHost, bcd, crc

# address bytes skipped before a general poll's answer: a machine whose link was down chirps its
# address until it sees a poll (no exception code is 01), more than three times when it is busy (make
# test: the 2611 sequence read a fourth chirp as an exception code 01)
CHIRPS = 64
KEEP_S = 0.3  # the system's general polls: well inside the 5 s link-down time
LINK_DOWN_S = 5.6  # past board/sas_link.py LINK_DOWN_MS (5 s), with a loop pass to spare
# the link-down rule costs LINK_DOWN_S of silence and does the same each time: once a sequence (make
# test's six derandomized sequences drew it 28 times in 150 steps, 157 s of the suite's time)
LINK_DOWNS = 1


class SasSystem:
    """The central system on the rig's SAS line."""

    def __init__(self, path: str) -> None:
        self.host = SasHost(path, timeout=0.5)
        self.codes: list[int] = []  # exceptions reported since the last check, in order
        self.silent = threading.Event()  # set: the system stops polling (the link-down rule)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(KEEP_S):
            if self.silent.is_set():
                continue
            try:
                self.drain()
            except (TimeoutError, ValueError, OSError):
                pass  # the power is off, or the step under way says what is wrong

    def drain(self) -> None:
        """General polls until 00: every exception pending, kept in order. A byte that is our
        address is the machine's chirp (its link down, sent before it saw the poll: no exception
        code is 01): the answer follows it."""
        h = self.host
        with h.lock:
            for _ in range(80):
                h.flush()
                h.send(bytes([0x80 | h.address]))
                b = h.read(1)
                for _ in range(CHIRPS):
                    if b != bytes([h.address]):
                        break
                    b = h.read(1)
                else:
                    raise TimeoutError(f"only chirps ({CHIRPS}) in answer to a general poll")
                if not b:
                    raise TimeoutError("no answer to a general poll")
                if b[0] == 0:
                    return
                self.codes.append(b[0])
            raise Violation("sas_exception", f"more than 80 exceptions at once: {self.codes[-80:]}")

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


class SasRules:
    # --- the system's life with the rig (hooks of sim/fuzz/rules.py and checks.py) ------------------------
    def _sas_start(self) -> None:
        self.sas = SasSystem(self.rig.sas.path)
        self.sas_before: dict | None = None  # the meters at the last check (None: nothing to compare)

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

    def _sas_stop(self) -> None:
        if getattr(self, "sas", None) is not None:
            self.sas.close()
            self.sas = None

    def _check_sas(self, m: dict) -> None:
        """Invariants (docs/sas.md "Not done yet" 1, 2): 1C and 1A read over SAS are the books'; the
        exceptions reported since the last check are each an event's, once."""
        sas = getattr(self, "sas", None)
        if sas is None:
            return
        try:
            with sas.host.lock:
                sas.drain()  # first: the link up, no chirp in what follows
                d = sas.host.checked(0x1C, 36)
                credits = sas.host.meter(0x1A)
        except (TimeoutError, ValueError, OSError) as e:
            raise Violation("sas", f"no valid answer over SAS after {self.step_kind}: {e!r}") from None
        oracle.sas_meters([bcd(d[i:i + 4]) for i in range(0, 32, 4)], credits, m, self.step_kind)
        oracle.sas_exceptions(sas.take(), self.sas_before, m, SAS_RAISED, self.step_kind)
        self.sas_before = dict(m)

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
                                                   m["acceptor_in"] + m["bill_in"], m["jackpot"], m["games_played"])]}
        elif poll == "1C":
            d = h.checked(0x1C, 36)
            got = {"1C": [bcd(d[i:i + 4]) for i in range(0, 32, 4)]}
            want = {"1C": [v % 10 ** 8 for v in (m["coin_in"], m["coin_out"], m["acceptor_in"] + m["bill_in"],
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
                 0x23: m["cancelled"] + m["jackpot"], 0x24: m["acceptor_in"] + m["bill_in"]}
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
    @rule(order=st.sampled_from(SAS_ORDERS))
    @logged
    def sas_order(self, order: str) -> None:
        """One of the system's disables and, in the same step, its enable, in whatever state the
        sequence left: each taken (ACK) exactly where the state table takes host_disable /
        host_enable (NACK elsewhere); a disable taken stops play (a tilt) until its enable."""
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
        answer = h.command(on, data_on)
        if no_game:
            if answer != 0x81:
                raise Violation("sas_order", f"09 enable with no game offered: answered {answer}, not NACK")
        elif answer != 0x01 and rig.screen.get("state") != "ramerror":
            raise Violation("sas_order", f"{order} enable in {rig.screen.get('state')}: answered {answer}")
        rig.wait_polls(2, 1.0)

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

