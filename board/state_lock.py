# One emulated cabinet per state directory and per set of ports. The state directory holds a lock
# file naming the firmware process that runs on it ("pid PID ports P1 P2 P3"); a second cabinet is
# refused at once, in one line naming the running one, instead of sharing its NVRAM file or
# failing on a busy port with a traceback. A lock whose process is gone (a power cut is SIGKILL)
# is simply taken over. Linux /proc tells whether a pid is a live firmware: the unix port has no
# os.getpid() nor os.kill().
from board.compat import const

BUSY_EXIT = const(69)  # process exit status of a refused second cabinet (sysexits EX_UNAVAILABLE)
LOCK = "/cabinet.lock"


class Busy(Exception):
    """Another cabinet holds the state directory or a port: str(e) is the line to print."""


def my_pid():
    try:
        with open("/proc/self/stat") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError):
        return None  # no /proc (not Linux): no lock, the ports still refuse a second cabinet


def _alive(pid):
    # a zombie or a recycled pid has no firmware command line
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return b"firmware" in f.read()  # firmware/main.py, or the frozen image's firmware.main
    except OSError:
        return False


def holder(state_dir):
    """'pid PID ports ...' of the live cabinet that holds state_dir, or None."""
    try:
        with open(state_dir + LOCK) as f:
            text = f.read().strip()
        pid = int(text.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    if pid == my_pid() or not _alive(pid):
        return None
    return text


def check(state_dir):
    """Raise Busy when a live cabinet already runs on state_dir."""
    h = holder(state_dir)
    if h:
        raise Busy("%s is in use by the running cabinet (%s): stop it first" % (state_dir, h))


def claim(state_dir, ports):
    """Record this process as the cabinet of state_dir (call once its ports are bound)."""
    pid = my_pid()
    if pid is None:
        return
    with open(state_dir + LOCK, "w") as f:
        f.write("pid %d ports %s\n" % (pid, " ".join(str(p) for p in ports)))


def port_busy(state_dir, role, port):
    """The Busy error for a port another program holds, naming the cabinet if it is ours."""
    h = holder(state_dir)
    return Busy("%s port %d is in use%s: stop it first, or give other ports"
                % (role, port, " by the running cabinet (%s)" % h if h else " by another cabinet or program"))
