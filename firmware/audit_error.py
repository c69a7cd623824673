# The books' self-audit error (firmware/ledger.py audit, and the checks of the books mixed into the
# Ledger): raised where the books disagree with themselves; the cabinet makes it the audit tilt.


class AuditError(Exception):
    """The books disagree with themselves (self-audit): the audit tilt."""
