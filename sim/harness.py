"""The emulated cabinet around a real firmware process: the MicroPython unix port runs
firmware/main.py; this side plugs in the cables (ccTalk acceptor, panel link, console)."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable

from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.cctalk_bills import BillValidatorPeer
from sim.cctalk_hopper import HopperPeer
from sim.meter_monitor import MeterMonitor
from sim.panel_tap import PanelTap
from sim.printer import PrinterPeer
from sim.sas_pty import SasPty
from tools import firmware as fwbuild
from tools import image
from tools.console import ConsoleClient

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"
# How the firmware's code is loaded: "frozen" (the Jeton firmware image, `make firmware`: the device
# rooms in the image, as a board has them in flash, with a board's 32-bit words), "frozen64" (the
# same image built with 64-bit words, for comparison), "mpy" (the stock wheel loading build/mpy) or
# "py" (the stock wheel compiling the checkout). JETON_CODE picks another default.
CODE_FORMS = ("frozen", "frozen64", "mpy", "py")
DEFAULT_CODE = os.environ.get("JETON_CODE", "frozen")
# The emulated board's fixed heap: a board's (an STM32F405 gives the firmware about 100-150 KB;
# docs/build.md). One offered game's session fits 112K (bench_heap); a set of three offered games
# keeps three models and their boot checks in the heap and needs more. The stock 64-bit wheel,
# loading bytecode into the heap, needs far more: 512K since keno, poker, notes and coupons came in
# (the .mpy release's boot check ran out of memory in 384K reading its manifest of every file).
BOARD_HEAP = "128K"
# Code compiled on the device ("py") leaves the compiler's fragments in the heap: the boot's first
# journal buffer (5.7 KB in one piece) found no room at 512K once the coupons, bills, SAS and operator
# code came in. A board never compiles (frozen or .mpy); BOARD_HEAP is its figure.
DEFAULT_HEAP = {"frozen": BOARD_HEAP, "frozen64": "256K", "mpy": "512K", "py": "768K"}
# The image runs its frozen modules only: '' (the working directory, the checkout) comes first on
# sys.path and would shadow them with the sources.
FROZEN_BOOT = "import sys; sys.path.remove(''); from firmware.main import main; main(sys.argv[1:])"
DEFAULT_PORTS = {"console": 7770, "cctalk": 7771, "panel": 7772}
# The account the harness makes on a fresh cabinet (audit key turned; on one that had an
# administrator or lost its security memory, by an enrolment signed with the development operator
# key: `enrol`) and logs in with, so that a test's console commands run as an administrator. A test
# bench's, never a firmware default: the firmware has no credential until one is made on the machine.
ADMIN_ID = "sim"
ADMIN_PIN = "sim-admin-pin"
# console commands that only read: a session's memory checks run every one of them
READ_COMMANDS = ("paytable fr", "paytable en", "tournament", "events", "recall", "recall json", "games",
                 "state", "meters json", "hardmeters json", "mem", "version", "coupons", "validation")
# The validation ids the harness gives a vlt cabinet as its system would (SAS 4C; the console's
# `validation set`, firmware/coupon_store.py): until one is set the cabinet takes no money. One
# system for every cabinet of a process: it never gives a validation id twice, to the same machine
# (after its coupon memory was lost) or to another: each one it sets is the next from here.
FIRST_VALIDATION_ID = 4242
SYSTEM_IDS: list[int] = []  # the ids given so far in this process


def free_ports(n: int) -> list[int]:
    """Ports free at this instant. Another process may bind one before the caller does: a firmware
    is given port 0 instead (it binds a port itself and reports it: FirmwareProcess.ports)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


# the last firmware processes started since the test runner last cleared it: a failing test's report
# shows their last lines (tests/conftest.py), since a timeout alone does not say what the cabinet did.
# Only the last STARTED_KEPT: a power-cut campaign boots thousands, and each kept one held its lines
STARTED: list["FirmwareProcess"] = []
STARTED_KEPT = 8


class FirmwareProcess:
    """The firmware image (`build/firmware/unix32/micropython -X heapsize=HEAP`), or the stock
    `micropython firmware/main.py`, with the emulated board."""

    def __init__(self, state_dir: str | Path, ports: dict[str, int], heap: str | None = None,
                 extra_args: list[str] | None = None, compiled: bool = True, code: str | None = None,
                 sas_fd: int | None = None, sign_config: bool = True):
        # compiled=False: from source, compiled on the device (a benchmark's reference)
        # sas_fd: the SAS line's pty master (sim/sas_pty.py), inherited by the firmware as --sas FD
        self.sas_fd = sas_fd
        self.sign_config = sign_config  # vlt: STATE/operator.json signed as asked (operator_config)
        self.code = code or (DEFAULT_CODE if compiled else "py")
        if self.code not in CODE_FORMS:
            raise ValueError(f"code must be one of {CODE_FORMS}, not {self.code!r}")
        heap = heap or DEFAULT_HEAP[self.code]
        self.compiled = self.code != "py"
        self.state_dir = Path(state_dir)
        self.asked = dict(ports)  # what each boot asks for: 0 lets the board choose (no race)
        self.ports = dict(ports)  # the ports bound, from the firmware's 'jeton: ports' line
        self.heap = heap
        self.extra_args = extra_args or []
        # what the frozen image runs (-c): the firmware's main; a bench's census sets a line of its own
        self.boot_line = FROZEN_BOOT
        self.proc: subprocess.Popen[str] | None = None
        self.lines: list[str] = []
        self.ready: dict = {}
        self._ready = threading.Event()

    def command(self) -> list[str]:
        if self.code in ("frozen", "frozen64"):
            image = fwbuild.FIRMWARE if self.code == "frozen" else fwbuild.FIRMWARE64
            cmd = [str(image), "-X", f"heapsize={self.heap}", "-c", self.boot_line]
        else:
            cmd = [str(MICROPYTHON), "-X", f"heapsize={self.heap}", "firmware/main.py"]
        cmd += ["--state", str(self.state_dir)]
        for role, port in self.asked.items():
            cmd += [f"--{role}", str(port)]
        if self.sas_fd is not None:
            cmd += ["--sas", str(self.sas_fd)]
        return cmd + self.extra_args

    def operator_config(self) -> Path | None:
        """Under `--jurisdiction vlt` the cabinet takes its game set, credit value and jurisdiction
        only from a configuration the operator signs (firmware/operator_config.py): the emulated
        cabinet's operator signs STATE/operator.json with the development operator key for the
        games and jurisdiction on the command line (the credit value and machine id of
        STATE/settings.json, else firmware/config.py's), as a central system would send it."""
        args = self.extra_args
        if not self.sign_config or "--jurisdiction" not in args[:-1] or args[args.index("--jurisdiction") + 1] != "vlt":
            return None
        from firmware import config
        from tools import operator

        games = list(config.GAMES)
        if "--games" in args[:-1]:
            games = [g for g in args[args.index("--games") + 1].split(",") if g]
        settings = operator.read_config(self.state_dir / "settings.json") or {}
        self.state_dir.mkdir(parents=True, exist_ok=True)
        return operator.dev_config(self.state_dir, "vlt", games, settings.get("DENOM_CENTS", config.DENOM_CENTS),
                                   settings.get("MACHINE_ID", config.MACHINE_ID))

    def start(self, timeout: float = 20.0) -> "FirmwareProcess":
        self.operator_config()
        # compiled as a board runs them: no compiler peaks in the firmware's fixed heap
        if self.code in ("frozen", "frozen64"):
            fwbuild.ensure_built(32 if self.code == "frozen" else 64)  # a BuildError says what is missing
            path = ".frozen"
        elif self.code == "mpy":
            image.build()
            path = image.micropypath()
        else:
            path = f".frozen:{ROOT}"
        env = dict(os.environ, MICROPYPATH=path)
        self._ready.clear()
        self.ready = {}
        self.ports = dict(self.asked)
        STARTED.append(self)
        del STARTED[:-STARTED_KEPT]
        self.proc = subprocess.Popen(
            self.command(), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            pass_fds=(self.sas_fd,) if self.sas_fd is not None else (),
        )
        threading.Thread(target=self._pump, args=(self.proc,), daemon=True).start()
        if not self._ready.wait(timeout) or not self.ready:
            self.kill()
            status = self.proc.poll()
            raise RuntimeError(f"firmware did not boot (exit status {status}):\n" + "\n".join(self.lines[-30:]))
        return self

    def _pump(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("jeton: ports "):  # printed before ready (firmware/main.py make_board)
                self.ports = {r: int(p) for r, _, p in (w.partition("=") for w in line.split()[2:])}
            elif line.startswith("jeton: ready"):
                self.ready = json.loads(line.split(" ", 2)[2])
                self._ready.set()
        # the pipe's end is closed here, not when the Popen goes: a campaign of thousands of boots
        # ran out of descriptors (make powercut stopped at cut 1002, select() on fd 1024)
        proc.stdout.close()
        proc.wait()
        if proc is self.proc:
            self._ready.set()  # it ended (a crash, a board reset): start() need not wait out its timeout

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Power cut: SIGKILL, no chance to tidy up."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


def pin_line(name: str, level: int) -> str:
    """A switch's level for the panel link, stamped with this host's CLOCK_MONOTONIC ms (the clock the
    emulated board's ticks_ms reads): its IRQ takes the edge at that time, however late a loaded
    host lets the firmware read the line (board/emulated.py Board.edge)."""
    return f"pin {name} {level} {int(time.monotonic() * 1000)}"


class PanelLink:
    """Host end of the panel wires: sets switch levels, watches lamps and the display."""

    def __init__(self, port: int):
        self.tap = PanelTap(port)
        self.lamps: dict[str, int] = {}
        self.screen: dict = {}
        self.closed = False  # the link went dead (power cut): nothing more will come
        self._cond = threading.Condition()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.tap.lines():
            kind, _, rest = line.partition(" ")
            with self._cond:
                if kind == "lamp":
                    name, _, v = rest.partition(" ")
                    self.lamps[name] = int(v)
                elif kind == "display":
                    self.screen = json.loads(rest)
                self._cond.notify_all()
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def set_pin(self, name: str, level: int) -> None:
        self.tap.send_line(pin_line(name, level))

    def press(self, button: str, hold: float = 0.04) -> None:
        self.set_pin(button, 1)
        time.sleep(hold)  # a human press lasts longer than the 30 ms debounce
        self.set_pin(button, 0)

    def wait_for(self, pred: Callable[[dict], bool], timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not pred(self.screen):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"display never matched; last {self.screen}")
                if self.closed:  # a dead link never will: say so now, not at the timeout
                    raise ConnectionError(f"panel link closed; last {self.screen}")
                self._cond.wait(left)
            return dict(self.screen)

    def close(self) -> None:
        self.tap.close()

    def touch(self, word: str, n: int = 0) -> None:
        """The player's screen: `spot N` marks or unmarks a keno number, `quick N`, `clear`."""
        self.tap.send_line(f"touch {word} {n}" if word != "clear" else "touch clear")


def sign_in(console: ConsoleClient, panel: PanelLink, uid: str = ADMIN_ID, pin: str = ADMIN_PIN,
            timeout: float = 10.0) -> list[str]:
    """Log the console in; on a fresh cabinet make the first administrator first, with the audit
    key turned for it and turned back. Returns the cabinet's reply to the login."""
    reply = console.login(uid, pin)
    if reply and reply[0].startswith("error: no account"):
        panel.set_pin("key_audit", 1)
        try:
            deadline = time.monotonic() + timeout
            while True:  # the key is debounced: 'setup' takes it once the cabinet has seen it
                reply = console.setup(uid, pin)
                if reply != ["error: turn the audit key first"] or time.monotonic() > deadline:
                    break
                time.sleep(0.02)  # polled until the deadline: the debounce is the cabinet's
            if reply and "enrolment needs the operator's signature" in reply[0]:
                reply = enrol(console, uid, pin)
        finally:
            panel.set_pin("key_audit", 0)
        panel.wait_for(lambda s: s.get("state") not in ("audit", "service"), timeout)  # the key seen off
    if not reply or not (reply[0].startswith("logged in as") or reply[-1].endswith("logged in")):
        raise RuntimeError(f"console login as {uid} failed: {reply}")
    keep_log_room(console)
    return reply


LOG_ROOM = 128  # records of room the harness keeps in the security log (an auditor's export and archive)


def keep_log_room(console: ConsoleClient, room: int = LOG_ROOM) -> bool:
    """A campaign's sessions run hundreds of commands, each a security record, and a record not
    archived is never written over (firmware/audit.py): at the cabinet's reserve its privileged
    commands stop. As an auditor would, export the log and archive it when less than `room` is
    left. True when it archived."""
    out = console.command("security status")
    try:
        status = json.loads(out[-1])
    except (ValueError, IndexError):
        return False  # not logged in as an auditor or an administrator: nothing to do here
    if status["room"] >= room:
        return False
    records = json.loads(console.command("security json")[-1])
    if records:
        console.command(f"security archive {records[-1][0]}")
    return True


def enrol(console: ConsoleClient, uid: str, pin: str, key: Path | None = None) -> list[str]:
    """The first administrator of a machine that had one, or lost its security memory: an
    enrolment signed by the operator (the development operator key unless `key`) for the board and
    the number its console's `enrol` names (firmware/enrolment.py). The audit key must be on."""
    from tools import operator

    info = console.command("enrol")
    m = re.match(r"board ([0-9a-f]{16}): ask the operator for enrolment number (\d+) ", info[0] if info else "")
    if not m:
        return info
    board, number = m.group(1), int(m.group(2))
    reply = console.command(f"enrol {uid} {number}")
    for line in [pin, pin] + operator.enrol_lines(key or fwbuild.DEV_OPERATOR_KEY, board, number, uid):
        if not reply or not reply[0].endswith(":"):
            return reply  # refused: the reason is the reply
        reply = console.command(line)
    return reply


def system_validation(console: ConsoleClient, given: list[int] = SYSTEM_IDS) -> int | None:
    """Set the cabinet's validation id as its system would, when it has none (a new cabinet, or its
    coupon memory lost): the next id the system never gave, recorded in `given`. Returns the id set,
    or None when one was in force (or the cabinet has no coupon memory)."""
    reply = console.command("validation json")
    try:
        v = json.loads(reply[-1])
    except (ValueError, IndexError):
        return None  # no coupon memory (a casino cabinet), or the console said why not
    if v["vid"]:
        return None
    vid = (given[-1] + 1) if given else FIRST_VALIDATION_ID
    reply = console.command(f"validation set {vid}")
    if not reply or not reply[0].startswith(f"validation id {vid},"):
        raise RuntimeError(f"the system could not set validation id {vid}: {reply}")
    given.append(vid)
    return vid


class EmulatedCabinet:
    """Firmware process + coin acceptor + panel + console, as a technician would wire them."""

    TOKEN_POSITION = 1

    def __init__(self, state_dir: str | Path, heap: str | None = None, ports: dict[str, int] | None = None,
                 extra_args: list[str] | None = None, compiled: bool = True, code: str | None = None,
                 jurisdiction: str | None = None, sas: bool = False,
                 sign_config: bool = True):
        """sas: wire the SAS line, a pseudo-terminal whose path (`sas_path`) a host opens; it stays
        across power cuts and boots, as the cable does (close_sas() when done)."""
        if ports is None:  # every boot binds ports the board chooses (self.ports: those of the last boot)
            ports = {"console": 0, "cctalk": 0, "panel": 0}
        given = list(extra_args or [])
        if "--jurisdiction" in given[:-1]:  # named among the firmware's arguments (sim.cabinet, bench_heap)
            jurisdiction = jurisdiction or given[given.index("--jurisdiction") + 1]
        elif jurisdiction:
            extra_args = given + ["--jurisdiction", jurisdiction]
        if jurisdiction == "vlt" and "printer" not in ports:
            ports["printer"] = 0  # the coupon printer's UART (sim/printer.py)
        self.sas = SasPty() if sas else None
        self.sas_path = self.sas.path if self.sas else None
        self.firmware = FirmwareProcess(state_dir, ports, heap, extra_args, compiled, code,
                                        sas_fd=self.sas.master if self.sas else None, sign_config=sign_config)
        self.printer: PrinterPeer | None = None  # kept across boots: paper, faults and tickets are its own
        self.acceptor: CoinAcceptorPeer | None = None
        self.hopper: HopperPeer | None = None
        self.bills: BillValidatorPeer | None = None
        self.meter_monitor: MeterMonitor | None = None
        self.panel: PanelLink | None = None
        self.console: ConsoleClient | None = None
        self.audit_on = False  # the audit key as a panel program last turned it (sim/cabinet.py 'a')
        self.jurisdiction = jurisdiction
        self.validation_ids: list[int] = []  # those the harness's system gave this cabinet (vlt), in order

    @property
    def ports(self) -> dict[str, int]:
        """The ports the firmware bound at its last boot (before the first: those it will ask for)."""
        return self.firmware.ports

    def boot(self, hopper: HopperPeer | None = None, meter_monitor: MeterMonitor | None = None,
             login: bool = True, bills: BillValidatorPeer | None = None, system: bool = True,
             console: bool = True) -> "EmulatedCabinet":
        """Power on. Pass the hopper / meter monitor of a previous boot to keep their state (they
        are peripherals with their own memory); by default fresh ones are plugged in. With login,
        the console is logged in as the harness's administrator (made first on a fresh cabinet), and
        a vlt cabinet without a validation id is given one, as its system would (unless `system` is
        False: a cabinet whose system has not set it yet). console=False leaves the console's cable
        unplugged, for a technician's client (`make run`)."""
        self.firmware.start()
        self.acceptor = CoinAcceptorPeer(self.ports["cctalk"])
        self.hopper = self.acceptor.attach(hopper or HopperPeer())  # same multi-drop bus, address 3
        self.bills = self.acceptor.attach(bills or BillValidatorPeer())  # address 40 (vlt takes notes)
        self.acceptor.start()
        if "printer" in self.ports:
            if self.printer is None:  # what it prints is also kept as text and PNG in STATE/coupons
                self.printer = PrinterPeer(self.ports["printer"], out_dir=str(Path(self.firmware.state_dir) / "coupons"))
            self.printer.port = self.ports["printer"]  # this boot's
            self.printer.start()
        self.meter_monitor = (meter_monitor or MeterMonitor()).connect(self.ports["panel"])
        self.panel = PanelLink(self.ports["panel"])
        if console:  # the console takes one session at a time: plugged in here, a technician gets 'busy'
            self.console = ConsoleClient(f"socket://127.0.0.1:{self.ports['console']}", connect_for=5)
        self.panel.wait_for(lambda s: "credits" in s)
        if login:
            self.sign_in()
            if system and self.firmware.ready.get("jurisdiction") == "vlt":  # as this boot runs, whatever was asked
                self.system_validation()
        return self

    def system_validation(self) -> int | None:
        assert self.console
        vid = system_validation(self.console)
        if vid is not None:
            self.validation_ids.append(vid)
        return vid

    def sign_in(self, uid: str = ADMIN_ID, pin: str = ADMIN_PIN, timeout: float = 10.0) -> list[str]:
        assert self.console and self.panel
        return sign_in(self.console, self.panel, uid, pin, timeout)

    def close_sas(self) -> None:
        """Unplug the SAS cable for good (after the last boot)."""
        if self.sas is not None:
            self.sas.close()

    def power_cut(self) -> None:
        self.firmware.kill()
        self._unplug()

    def shutdown(self) -> None:
        self.firmware.stop()
        self._unplug()

    def _unplug(self) -> None:
        for part in (self.acceptor, self.meter_monitor, self.panel, self.console, self.printer):
            if part is not None:
                try:
                    part.stop() if hasattr(part, "stop") else part.close()
                except OSError:
                    pass
        self.acceptor = self.panel = self.console = None
        self.meter_monitor = None

    # --- what a player does -------------------------------------------------------------------
    def insert_token(self, timeout: float = 10.0) -> dict:
        assert self.acceptor and self.panel
        before = self.panel.screen.get("credits", 0)
        deadline = time.monotonic() + timeout
        while not self.acceptor.accepting(self.TOKEN_POSITION):  # the firmware enables it after boot
            if time.monotonic() > deadline:
                raise TimeoutError("acceptor never enabled by the firmware")
            time.sleep(0.05)
        if not self.acceptor.insert(self.TOKEN_POSITION):
            raise RuntimeError("token rejected")
        return self.panel.wait_for(lambda s: s.get("credits", 0) > before, timeout)

    def insert_bill(self, bill_type: int, timeout: float = 10.0) -> dict:
        """A note of that type (sim/cctalk_bills.py: 1 $5 ... 5 $100) once the firmware takes
        notes; returns the screen once the credits moved (the note stacked and credited)."""
        assert self.bills and self.panel
        before = self.panel.screen.get("credits", 0)
        deadline = time.monotonic() + timeout
        while not self.bills.accepting(bill_type):
            if time.monotonic() > deadline:
                raise TimeoutError("bill validator never enabled by the firmware")
            time.sleep(0.05)
        if not self.bills.insert(bill_type):
            raise RuntimeError("note refused")
        return self.panel.wait_for(lambda s: s.get("credits", 0) > before, timeout)

    def play(self, timeout: float = 10.0) -> dict:
        """A whole game: for video poker the deal, the built-in strategy's holds and the draw (a
        hand already dealt is drawn with the holds it has)."""
        assert self.panel
        if self.panel.screen.get("state") == "hold":
            return self.draw(timeout)
        games = self.panel.screen.get("games", 0)
        self.panel.press("play")
        # the game is committed when its count moves; it is over when the reels stop
        s = self.panel.wait_for(lambda s: s.get("games", 0) > games and s.get("state") != "spin", timeout)
        if s.get("state") == "hold":
            self.auto_hold()
            s = self.draw(timeout)
        return s

    # --- video poker: deal, hold, draw -----------------------------------------------------------------
    def _loop_passes(self, n: int = 2, timeout: float = 2.0) -> None:
        """Until the firmware's loop has polled the acceptor n more times: a press or a touch sent
        before is then taken (the loop reads the panel in the pass that polls the acceptor)."""
        assert self.acceptor
        polls = self.acceptor.polls
        deadline = time.monotonic() + timeout
        while self.acceptor.polls < polls + n and time.monotonic() < deadline:
            time.sleep(0.01)

    def _press(self, button: str) -> None:
        """Held until the loop has seen it past its debounce, however busy the host (sim/fuzz/rules.py)."""
        assert self.panel
        self.panel.set_pin(button, 1)
        time.sleep(0.05)
        self._loop_passes()
        self.panel.set_pin(button, 0)

    def deal(self, timeout: float = 10.0) -> dict:
        """PLAY on a poker game: the bet debited, the deck committed, the five cards shown."""
        assert self.panel
        # a press while the last game's award is pending (spin) would be refused: wait it out
        games = self.panel.wait_for(lambda s: s.get("state") not in ("spin", "payout"), timeout).get("games", 0)
        self._press("play")
        return self.panel.wait_for(lambda s: s.get("games", 0) > games and s.get("state") == "hold", timeout)

    def hold(self, card: int, timeout: float = 10.0) -> dict:
        """The hold key under card 1..5 (the touch screen's): toggles that card's hold."""
        assert self.panel
        was = (self.panel.screen.get("hand") or {}).get("held", [0] * 5)[card - 1]
        self.panel.touch("hold", card)
        return self.panel.wait_for(lambda s: (s.get("hand") or {}).get("held", [was] * 5)[card - 1] != was, timeout)

    def set_holds(self, holds: int, timeout: float = 10.0) -> dict:
        """Hold exactly the cards of the mask (bit i: card i+1), with the hold keys."""
        assert self.panel
        s = self.panel.screen
        for i in range(5):
            if (s.get("hand") or {}).get("held", [0] * 5)[i] != holds >> i & 1:
                s = self.hold(i + 1, timeout)
        return s

    def auto_hold(self, timeout: float = 10.0) -> dict:
        """Auto-hold: the built-in strategy's holds (the console's `hand` says which once taken)."""
        assert self.panel
        self.panel.touch("auto")
        self._loop_passes(2, timeout)
        return dict(self.panel.screen)

    def draw(self, timeout: float = 10.0) -> dict:
        """DRAW (the play button in the hold state): over when the award is concluded."""
        assert self.panel
        self._press("play")
        return self.panel.wait_for(lambda s: not (s.get("hand") or {}).get("open") and s.get("state") not in ("spin", "hold"),
                                   timeout)

    def play_hand(self, holds: int | None = None, timeout: float = 10.0) -> dict:
        """One whole poker hand in one call: deal, the holds given (None: auto-hold), draw."""
        self.deal(timeout)
        if holds is None:
            self.auto_hold(timeout)
        else:
            self.set_holds(holds, timeout)
        return self.draw(timeout)

    def cash_out(self, timeout: float = 20.0) -> dict:
        """Press cash-out: the hopper pays whole tokens, and any hand pay (above the hopper limit,
        or the part smaller than a token) is paid by the attendant's reset key, as on the floor."""
        assert self.panel
        self.panel.press("cashout")
        s = self.panel.wait_for(lambda s: s.get("credits") == 0 or s.get("state") == "handpay", timeout)
        if s.get("state") == "handpay":
            self.attendant_key()
            s = self.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") != "handpay", timeout)
        return s

    def pay_jackpot(self, shown: dict, timeout: float = 10.0) -> int:
        """A win at or above the jackpot limit (config.JACKPOT_LIMIT) locks the cabinet, no money
        in and no bet change, until the attendant's key: given the screen a game ended on, the key
        is turned when it shows that lock. Returns the credits paid by hand (the jackpot meter's)."""
        assert self.panel
        if shown.get("state") != "jackpot":
            return 0
        self.attendant_key()
        self.panel.wait_for(lambda s: s.get("state") != "jackpot", timeout)
        return shown["win"]

    def attendant_key(self) -> None:
        assert self.panel
        self.panel.press("key_reset", hold=0.15)  # a key turn, well past the 50 ms switch debounce

    def meters(self) -> dict:
        assert self.console
        return json.loads(self.console.command("meters json")[-1])

    def quick_pick(self, spots: int, timeout: float = 10.0) -> list[int]:
        """Keno: a quick pick of that many spots; the card the firmware shows."""
        assert self.panel
        self.panel.touch("quick", spots)
        s = self.panel.wait_for(lambda s: isinstance(s.get("reels"), dict) and len(s["reels"].get("picks", ())) == spots
                                and not s["reels"].get("drawn"), timeout)
        return s["reels"]["picks"]
