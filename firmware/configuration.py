# The configuration a power-up settles on (issue 22.6): firmware/startup.py `configure` reads the
# settings file, the command line and the operator's signed configuration; here the signature is
# checked with the operator's key, the configuration's number against the board's "config" floor,
# the profile that needs a signed configuration (vlt) asked for one, and the money basis the books
# committed (firmware/money_basis.py) asked whether a change may be taken. Then the whole is taken,
# or none of it: with problems (the config tilt) the cabinet runs under the committed basis.
from firmware import money_basis, operator_config
from firmware.config import Config


def settle(board, ledger, problems, overrides, op, key, log=print):
    """The operator's signed configuration (its signature, its machine, its number against the
    board's "config" floor), the profile that needs one (vlt: before and after the change), and the
    money basis (firmware/money_basis.py); then the configuration is taken as a whole, or not at
    all. With problems (the config tilt's), the cabinet runs under the defaults and the basis its
    books committed, so what they owe is paid by the rules it arose under. Returns (the problems,
    the firmware/config.py Config the cabinet runs under). key: the operator's public key (None:
    code not from a signed image, the signature is not checked)."""
    want = Config(overrides)
    juris, denom = want.JURISDICTION, want.DENOM_CENTS
    have = money_basis.basis(ledger.st) if ledger.st is not None else None
    floor = board.floor("config")
    fields = None
    if op is not None:
        if key is None:
            log("operator configuration: NOT VERIFIED (no operator key: code not from a signed image)")
        fields, why = operator_config.check(op[0], op[1], op[2], key, want.MACHINE_ID, floor.read())
        if why:
            problems.insert(0, why)  # first: what an unsigned file says is no one's setting
    elif operator_config.SIGNED in (juris, have[0] if have else None):
        problems.append("JURISDICTION: under %s the game set, credit value and jurisdiction come only from a "
                        "configuration the operator signs; there is none (%s)" % (operator_config.SIGNED,
                                                                                 operator_config.FILE))
    if not problems and ledger.st is not None:
        why = money_basis.check(ledger, juris, denom)
        if why:
            problems.append(why)
    if problems:
        # what the books owe is paid by the rules it arose under
        return problems, Config({"JURISDICTION": have[0], "DENOM_CENTS": have[1]} if have else None)
    if fields is not None and (floor.read() is None or fields["config"] > floor.read()):
        floor.write(fields["config"])  # an older configuration is never taken again
    if ledger.st is not None and have != (juris, denom):
        money_basis.record(ledger, juris, denom,
                           "operator configuration %d" % fields["config"] if fields else "settings")
    return [], want
