"""One emulated cabinet across power cycles, for the campaigns (`sim.fuzz`, `sim.powercut`).

The firmware process comes and goes (power cuts, board resets); the peripherals that keep their
own memory stay: the ccTalk acceptor's event counter and buffer, the hopper and its counters, the
electromechanical meters' counts, the bill validator's stacker. The bill validator shares the
cabinet's supply when a cut says so (cut(validator_too=True): sim/cctalk_bills.py power_cycle), and
its faults, fraud codes and counter replays/jumps are the peer's own calls (rig.bills.error(code),
fraud(code), jam(), replay(k), jump(k), lose_events(k), burst_after_stack(k)). A note of unknown
fate is settled as an attendant who counts the cash box would: attend_note(). Waits are on events
(display lines, acceptor polls, the console's prompt), never fixed sleeps.
"""
from __future__ import annotations

import json
import multiprocessing
import queue
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable

from board.counter_file import CounterFile
from board.emulated import FileNvram
from board.secret_file import SecretFile
from firmware import config
from firmware.audit import SEC_BASE
from firmware.ledger import open_memory
from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.cctalk_bills import BillValidatorPeer
from sim.cctalk_hopper import HopperPeer
from sim.critmem_live import live_ranges
from sim.harness import FirmwareProcess, PanelLink, keep_log_room, sign_in, system_validation
from sim.meter_monitor import MeterMonitor
from sim.printer import PrinterPeer
from sim.sas_pty import SasPty
from tools.console import ConsoleClient
from tools.progress import wanted

NVRAM_SIZE = SEC_BASE  # the ledger's memory, below the security memory (firmware/audit.py)
# the acceptor's own memory across the cabinet's power cuts (it has its own supply)
ACCEPTOR_MEMORY = ("counter", "events", "master_enabled", "inhibit_mask")
CONSOLE_POLL_S = 0.005  # pyserial's read timeout: each command returns as soon as its prompt arrives
RESTART_MARK = "restarting the cabinet"
BOARD_RESET_MARK = "board reset"


class Rig:
    """Firmware process + ccTalk acceptor and hopper + panel + meter monitor + console."""

    def __init__(self, state: str | Path, games: tuple[str, ...] = (), certs: str | Path | None = None,
                 heap: str | None = None, hopper_stock: int = 100000, jurisdiction: str | None = None,
                 print_ms: int = 30, stack_s: float = 0.0, printer: bool = False, sign_config: bool = True,
                 sas: bool = False):
        """printer: wire the coupon printer whatever the jurisdiction (a cabinet whose jurisdiction
        may change between boots); sign_config False: the caller signs STATE/operator.json itself
        (sim/harness.py FirmwareProcess.operator_config signs one for the command line's otherwise).
        sas: wire the SAS line (a pseudo-terminal kept across cuts, as the cable is: `sas.path`)."""
        self.sas = SasPty() if sas else None
        self.state = Path(state)
        self.state.mkdir(parents=True, exist_ok=True)
        self.games = tuple(games)
        self.certs = certs
        self.heap = heap
        # 0: each boot's firmware binds ports it chooses and reports them (self.ports: the last boot's),
        # so no other process can take a port between its choice and its use
        self.asked = {"console": 0, "cctalk": 0, "panel": 0}
        self.ports = dict(self.asked)
        self.jurisdiction = jurisdiction
        self.printer: PrinterPeer | None = None  # a coupon jurisdiction's printer: its paper and tickets are its own
        self.sign_config = sign_config
        if jurisdiction == "vlt" or printer:
            self.asked["printer"] = 0
            self.printer = PrinterPeer(0, print_ms)  # ms a ticket stays in the paper path; its port: each boot's
        self.hopper = HopperPeer(stock=hopper_stock)
        self.monitor = MeterMonitor()
        # keeps its own memory (escrow, counter, stacker) across cuts that leave it powered; a routed
        # note takes stack_s to land in the stacker
        self.bills = BillValidatorPeer(stack_s=stack_s)
        self.acceptor_memory: dict | None = None
        self.fw: FirmwareProcess | None = None
        self.peer: CoinAcceptorPeer | None = None
        self.panel: PanelLink | None = None
        self.console: ConsoleClient | None = None
        self.boots = 0
        # the coils whose stroke the last cut took (on at the drop), and of those the ones the firmware
        # had recorded done (see cut())
        self.cut_strokes: list[str] = []
        self.unreleased: list[str] = []

    def args(self) -> list[str]:
        extra = []
        if self.games:
            extra += ["--games", ",".join(self.games)]
        if self.certs:
            extra += ["--certs", str(self.certs)]
        if self.jurisdiction:
            extra += ["--jurisdiction", self.jurisdiction]
        return extra

    # --- power ---------------------------------------------------------------------------------------
    def boot(self, timeout: float = 20.0, system: bool = True) -> None:
        """Power on and plug every cable in; returns once the display shows a state. A cabinet that
        runs as a vlt (its ready line says so) without a validation id is given one, as its system
        would, unless `system` is False (a system that has not set it yet)."""
        self.fw = FirmwareProcess(self.state, self.asked, self.heap, self.args(), sign_config=self.sign_config,
                                  sas_fd=self.sas.master if self.sas else None)
        self.boots += 1
        self.fw.start(timeout)
        self.ports = self.fw.ports
        peer = CoinAcceptorPeer(self.ports["cctalk"])
        if self.acceptor_memory:
            peer.__dict__.update(self.acceptor_memory)
        peer.attach(self.hopper)
        peer.attach(self.bills)
        peer.start()
        self.peer = peer
        if self.printer is not None:
            self.printer.port = self.ports["printer"]
            self.printer.start()
        self.monitor.connect(self.ports["panel"])
        self.panel = PanelLink(self.ports["panel"])
        # 15 s for a reply's prompt: a firmware that answers at all answers in milliseconds, but a loaded
        # 2-core CI host once took more than the client's 5 s (an 'unresponsive' violation from load)
        self.console = ConsoleClient(f"socket://127.0.0.1:{self.ports['console']}", timeout=15.0, connect_for=5)
        self.console.port.timeout = CONSOLE_POLL_S
        self.panel.wait_for(lambda s: "state" in s, timeout)
        sign_in(self.console, self.panel)  # the campaign's commands run as the harness's administrator
        if system and self.running == "vlt":  # no money before the system sets a validation id
            system_validation(self.console)

    @property
    def running(self) -> str | None:
        """The jurisdiction the last boot runs under (its ready line), whatever was asked."""
        return self.fw.ready.get("jurisdiction") if self.fw is not None else None

    def alive(self) -> bool:
        return self.fw is not None and self.fw.alive()

    def exit_status(self) -> int | None:
        return None if self.fw is None or self.fw.proc is None else self.fw.proc.poll()

    def cut(self, hopper_too: bool = False, validator_too: bool = False, held: str = "front",
            transport: str = "cashbox") -> None:
        """Power cut: SIGKILL, then the cables go dead. The hopper and the bill validator lose power
        too when asked (the validator: where a note held in escrow or on its way ends up, see
        sim/cctalk_bills.py power_cycle)."""
        if self.fw:
            self.fw.kill()
        taken = len(self.monitor.cut_names)
        self.unplug()
        self.cut_strokes = self.monitor.cut_names[taken:]
        self.unreleased = self.strokes_recorded(self.cut_strokes)
        if hopper_too:
            self.hopper.power_cycle()
        if validator_too:
            self.bills.power_cycle(held, transport)

    def shutdown(self) -> None:
        if self.fw:
            self.fw.kill()
        self.unplug()
        if self.sas is not None:
            self.sas.close()

    def unplug(self) -> None:
        if self.peer:
            self.acceptor_memory = {k: getattr(self.peer, k) for k in ACCEPTOR_MEMORY}
            self.acceptor_memory["events"] = list(self.peer.events)
            self.peer.stop()
        if self.printer is not None:
            self.printer.stop()
        self.monitor.stop()
        if self.panel is not None:
            self.panel.close()
        if self.console is not None:
            # the cable goes dead at once: pyserial's close() waits 0.3 s for a peer that is gone
            port = self.console.port
            sock = getattr(port, "_socket", None)
            if sock is not None:
                sock.close()
            port._socket = None
            port.is_open = False
        self.peer = self.panel = self.console = None

    # --- reading the machine -------------------------------------------------------------------------
    @property
    def screen(self) -> dict:
        return self.panel.screen if self.panel else {}

    def command(self, line: str) -> list[str]:
        assert self.console is not None and self.panel is not None
        out = self.console.command(line)
        if out and out[0] == "session timed out: log in again":  # a long stretch without a command
            sign_in(self.console, self.panel)
            out = self.console.command(line)
        elif out and out[0].startswith("refused: security log full"):  # a long sequence: the auditor archives
            keep_log_room(self.console)
            out = self.console.command(line)
        return out

    def console_json(self, line: str):
        lines = self.command(line)  # asked once: a JSON answer goes out in pieces (board/json_out.py)
        try:
            return json.loads(lines[-1])
        except (ValueError, IndexError) as e:
            raise RuntimeError(f"console {line!r} answered {lines!r}") from e

    def restarts(self, since: int = 0) -> list[str]:
        """Supervisor restarts and board resets the firmware printed (from line `since`)."""
        lines = self.fw.lines[since:] if self.fw else []
        return [ln for ln in lines if RESTART_MARK in ln or BOARD_RESET_MARK in ln]

    def wait_polls(self, n: int = 2, timeout: float = 3.0) -> bool:
        """Let the firmware poll the acceptor n more times: coins in its buffer are then credited."""
        peer = self.peer
        if peer is None:
            return False
        start = peer.polls
        deadline = time.monotonic() + timeout
        while peer.polls < start + n:
            if time.monotonic() > deadline or not self.alive():
                return False
            time.sleep(0.01)
        return True

    def wait_screen(self, pred, timeout: float = 15.0) -> dict:
        assert self.panel is not None
        return self.panel.wait_for(pred, timeout)

    def wait_bills(self, n: int = 2, timeout: float = 3.0) -> bool:
        """Let the firmware poll the bill validator n more times (a vlt cabinet polls it)."""
        start = self.bills.polls
        deadline = time.monotonic() + timeout
        while self.bills.polls < start + n:
            if time.monotonic() > deadline or not self.alive():
                return False
            time.sleep(0.01)
        return True

    def attend_note(self, base_cents: int = 0) -> tuple[dict | None, str | None]:
        """A note of unknown fate (firmware/bill_in.py), settled as the attendant who counts the cash
        box would: the stacker's notes (less base_cents, what it held at the last RAM clear) against
        bill_in: one note's worth more is "stacked", the same is "returned". Returns (the note, the
        word typed), (None, None) when none stands, or (note, None) when the cash box matches neither
        (the caller's problem: nothing is typed)."""
        note = self.console_json("note json")["note"]
        if note is None:
            return None, None
        m = self.console_json("meters json")
        box = (self.bills.stacked_cents - base_cents) // config.DENOM_CENTS
        word = "stacked" if box == m["bill_in"] + note["k"] else "returned" if box == m["bill_in"] else None
        if word is None:
            return note, None
        out = self.command("note " + word)
        if out and "refused in state" in out[0]:  # a lock or a payout first: the attendant sees to it
            self.panel.press("key_reset", hold=0.15)
            self.panel.wait_for(lambda s: s.get("state") not in ("handpay", "jackpot", "payout", "spin"), 15)
            out = self.command("note " + word)
        if not out or "settled as " + word not in out[0]:
            raise RuntimeError(f"note {word} answered {out!r}")
        return note, word

    def wait_hard_meters(self, timeout: float = 60.0) -> bool:
        """True once the firmware says no stroke is on its way ('hardmeters json' busy false)."""
        deadline = time.monotonic() + timeout
        while self.console_json("hardmeters json")["busy"]:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    # --- critical memory, while the power is off -------------------------------------------------------
    def live_ranges(self) -> list[tuple[int, int]]:
        nv = FileNvram(str(self.state / "nvram.bin"), NVRAM_SIZE)
        try:
            # the machine's own key and counter, from beside nvram.bin (board/emulated.py)
            secret = SecretFile(str(self.state / "secret"), None).read()
            mem = open_memory(nv, secret, CounterFile(str(self.state / "counter")))
            mem.open()
            return live_ranges(mem)
        finally:
            nv.close()

    def coupon_records(self) -> list[dict]:
        """The coupons committed in critical memory (firmware/coupon_books.py), read on the host while
        the power is off: whether a cut left one owed (committed, not yet seen issued)."""
        raw = self.read_block("cpn")
        return json.loads(raw) if raw else []

    def read_block(self, name: str) -> bytes:
        """One block of the books' critical memory, read on the host with the firmware's own code and
        the machine's key and counter (beside nvram.bin, board/emulated.py) while the power is off."""
        nv = FileNvram(str(self.state / "nvram.bin"), NVRAM_SIZE)
        try:
            secret = SecretFile(str(self.state / "secret"), None).read()
            mem = open_memory(nv, secret, CounterFile(str(self.state / "counter")))
            mem.open()
            return mem.read(name)
        finally:
            nv.close()

    def floors(self) -> dict[str, int]:
        """The board's floors (STATE/floor-NAME: the release, the operator's configuration and the
        enrolment numbers), read on the host: name -> value (those never written left out)."""
        out = {}
        for path in sorted(self.state.glob("floor-*")):
            n = CounterFile(str(path)).read()
            if n is not None:
                out[path.name[len("floor-"):]] = n
        return out

    def strokes_recorded(self, cut: list[str]) -> list[str]:
        """Of the coils whose stroke the cut took (on at the drop: the meter did not count it), those
        critical memory records as done (its `em` block, [done, in flight]: in flight 0). The cut
        fell between the commit that counts the stroke and the coil's release, the one window
        board/meters_em.py leaves on a board without a power-fail interrupt (that meter stays one
        behind its soft meter); a stroke still in flight is driven again at power-up."""
        if not cut:
            return []
        try:
            raw = self.read_block("em")
        except Exception:  # noqa: BLE001  memory the firmware itself will judge at the next boot: not judged here
            return []
        em = json.loads(raw) if raw else {}
        return [name for name in cut if name in em and not em[name][1]]

    def flip_bit(self, k: int, bit: int) -> int:
        """Flip bit `bit` of the k-th byte (modulo their size) of live critical memory; returns its offset."""
        ranges = self.live_ranges()
        k %= sum(n for _, n in ranges)
        for off, n in ranges:
            if k < n:
                pos = off + k
                break
            k -= n
        path = self.state / "nvram.bin"
        data = bytearray(path.read_bytes())
        data[pos] ^= 1 << (bit % 8)
        path.write_bytes(bytes(data))
        return pos

    def tampered_certs(self, game_id: str, src: Path) -> Path:
        """A copy of the certificates with one hex digit of `game_id`'s math hash changed."""
        dest = self.state / "certs-tampered"
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(src, dest)
        f = dest / f"{game_id}.json"
        cert = json.loads(f.read_text())
        h = cert["math_hash"]
        cert["math_hash"] = ("0" if h[0] != "0" else "1") + h[1:]
        f.write_text(json.dumps(cert))
        return dest


def parallel(fn: Callable[[tuple], dict], work: list[tuple], total: int, unit: str, progress: bool = True) -> list:
    """fn(args + (queue,)) in one process per item of `work`; each puts a count on the queue as it
    goes, shown as one progress bar (tqdm, on stderr). Returns fn's results in order."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Manager() as manager:
        q = manager.Queue()
        bar = None
        if progress and wanted():  # stderr a terminal and CI unset (tools/progress.py)
            from tqdm import tqdm
            bar = tqdm(total=total, unit=unit, file=sys.stderr, smoothing=0.1)
        with ProcessPoolExecutor(len(work), mp_context=ctx) as pool:
            futures = [pool.submit(fn, w + (q,)) for w in work]
            while True:
                try:
                    n = q.get(timeout=0.5)
                except queue.Empty:
                    if all(f.done() for f in futures):
                        break
                    continue
                if bar is not None:
                    bar.update(n)
            results = [f.result() for f in futures]
        if bar is not None:
            bar.close()
    return results
