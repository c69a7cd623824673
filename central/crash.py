"""A test's kill at a named step (tests/host/test_central_crash.py): where the environment variable
JETON_CENTRAL_CRASH names the step, the process SIGKILLs itself there, as a power cut or the OOM
killer would end it: no handler, no flush, no rollback but the database's own. Unset in service."""
from __future__ import annotations

import os
import signal

CRASH_ENV = "JETON_CENTRAL_CRASH"


def point(step: str) -> None:
    if os.environ.get(CRASH_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)
