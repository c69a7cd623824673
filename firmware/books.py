# What the ledger's parts share (firmware/ledger.py and the books mixed into it): the self-audit
# error, the clock that stamps records, and the number of games kept for recall.
import time

RECALL = 10  # games kept for recall


class AuditError(Exception):
    """The books disagree with themselves (self-audit): the audit tilt."""


def now():
    return int(time.time())
