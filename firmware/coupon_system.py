# A coupon cabinet's coupon memory (firmware/coupon_store.py) as the firmware reaches it outside
# play: opened and reconciled with the books at power-up (firmware/startup.py open_coupon_out), and
# what a system does to it (SAS 4C and 4D; the console's `validation set` and `coupons ack` until a
# SAS link does): set the validation id, acknowledge a record; and what SAS 7B-7D set (set_ticket).
# Imported by a coupon cabinet only: a casino cabinet's heap never holds them.
from firmware.coupon_store import SYSTEM, claim_s


def open_coupons(board, ledger, audit, found, log):
    """The coupon memory (firmware/coupon_store.py) of a coupon jurisdiction, in a region of its
    own that a RAM clear does not reach, or None. Lost, it starts afresh without a validation id,
    logged in both logs: no coupon until the system sets one. A part too small to hold it leaves the
    `coupons` condition (appended to found: no money in, no play)."""
    from firmware.coupon_store import CouponStore, open_memory
    from firmware.critmem import RamError

    secret = board.machine_secret()
    try:
        mem = open_memory(board.nvram, secret, board.rollback_counter("coupons"), buffers=ledger.mem)
    except (RamError, KeyError) as e:
        found.append(("coupons", "no coupon memory: %s" % e))
        return None
    store = CouponStore(mem, secret)
    for finding in store.open():
        log("coupon memory: " + finding)
        if ledger.st is not None:
            ledger.event("nvram", "coupon memory: " + finding)
        if store.lost and audit is not None:
            audit.record("-", "nvram", finding)  # evidence a RAM clear keeps
    return store


def reconcile(store, ledger, log):
    """At power-up: the books and the coupon memory agree on the latest coupon. A coupon the books
    committed and the coupon memory never got (a cut between the two commits, or the coupon
    memory lost) is kept there as the books have it; one issued there but still owed in the books
    (a cut between the two commits of its issue) is issued in the books too. A coupon owed in the
    coupon memory that the books do not know (the books RAM-cleared since) stays owed: it is
    money owed to a player, and it prints."""
    if store is None or ledger.st is None:
        return
    last = ledger.coupon_last()
    if last is None:
        return
    try:
        adopted = store.adopt(last)
    except ValueError as e:  # full: cannot happen (a coupon is made only with room for it); never a restart loop
        log("coupon %d not kept in the coupon memory: %s" % (last["s"], e))
        ledger.event("coupon", "no %d not kept: %s" % (last["s"], e))
        return
    if adopted:
        log("coupon %d recovered from the books" % last["s"])
        ledger.event("coupon", "no %d kept in the coupon memory from the books" % last["s"])
    if last["st"] == "owed" and store.owed_seq() != last["s"]:
        ledger.coupon_issued(last["s"])  # issued (or acknowledged) there already


class Busy(ValueError):
    """Not now: a change that must wait (SAS: the busy response, the system asks again later)."""


def set_validation_id(cab, vid, seq=0):
    """The system sets the machine's validation id (SAS 4C; the console's `validation set`):
    (validation id, sequence) in force. Logged in the books. A validation id ends system
    validation (the machine numbers its coupons again): not while a cash-out waits for the
    system's number (Busy)."""
    store = cab.coupons
    if store is None:
        raise ValueError("no coupon memory on this cabinet")
    if vid and store.system() and cab.ledger.st is not None and cab.ledger.validation_request() is not None:
        raise Busy("a cash-out waits for the system's number")
    was = store.validation()
    got = store.set_validation_id(vid, seq)
    if got != was and cab.ledger.st is not None and not cab.ram_error:
        cab.ledger.event("validation", "validation id %d, sequence %d (was %d, %d)" % (got + was))
    cab.coupon_condition()
    return got


def printed_fields(cab, t):
    """What of ticket data t reaches the paper: the texts and the claim deadline in force."""
    return t["loc"], t["a1"], t["a2"], claim_s(cab.money_out.profile.get("claim_s"), t["days"])


def set_ticket(cab, t, why):
    """The system sets what the tickets carry and how the machine validates (SAS 7B-7D: ticket data
    t, firmware/coupon_store.py ticket()'s keys, checked by the caller). Busy when it would make
    the coupon owed, printed again after a cut or a fault, differ from what was printed of it, or
    would change the validation while a cash-out waits for the system's number. Logged in the books."""
    store = cab.coupons
    was = store.ticket()
    if was == t:
        return
    if store.owed_seq() and printed_fields(cab, was) != printed_fields(cab, t):
        raise Busy("coupon %d is owed: it prints again as it began" % store.owed_seq())
    led = cab.ledger
    if (was["flags"] ^ t["flags"]) & SYSTEM and led.st is not None and led.validation_request() is not None:
        raise Busy("a cash-out waits for the system's number")
    store.set_ticket(t)
    if led.st is not None and not cab.ram_error:
        led.event("validation", "%s: %s validation, expiry %d days, host %d" % (
            why, "system" if t["flags"] & SYSTEM else "secure enhanced", t["days"], t["host"]))
    cab.coupon_condition()


def acknowledge(cab, seq):
    """The system has coupon seq's record (SAS 4D; the console's `coupons ack`): its slot may go."""
    if cab.coupons is None:
        raise ValueError("no coupon memory on this cabinet")
    rec = cab.coupons.acknowledge(seq)
    cab.coupon_condition()
    return rec
