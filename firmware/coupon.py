# Redemption coupon contents (S-13.1, r. 7, s. 9 and 14; L-6, r. 3, s. 6): the lines of text the
# printer prints above the control number (firmware/coupon_number.py), French then English, one field
# a line, at most 40 characters (board/printer_epic.py LINE). Times are Québec's local time
# (firmware/localtime.py); the claim deadline is the issue time plus the jurisdiction profile's
# `claim_s` (firmware/jurisdiction.py: 24 hours under vlt, S-13.1, r. 7, s. 14), or the days the
# central system set (SAS 7B/7D) within it (firmware/coupon_store.py claim_s). The system's location
# name and address lines (SAS 7C/7D), where it set them, follow the licence holder's line: they are
# more of the data identifying the licence holder, the site operator (s. 9).
from firmware import localtime
from firmware.money import dollars  # noqa: F401 (coupon.dollars: the ticket's amount)


def stamp(t):
    """Seconds since the epoch -> "2026-11-23 01:32:09 HNE/EST": Québec's local time."""
    return localtime.stamp(t, localtime.BILINGUAL)


def each_line(rec, cfg, duplicate=False, claim_s=None, ticket=None):
    """The coupon's text lines, French then English, every s. 9 field on a line of its own (the
    control number follows as text and bar code: board/printer_epic.py), one at a time: the printer
    sends each before the next is made, so a ticket's ~1 KB of text is never in the heap at once
    (the cash-out is a VLT's session peak). rec: the committed coupon record
    (firmware/coupon_store.py): {"s" sequence, "c" cents, "k" credits, "t" time, ...}. claim_s: how
    long after its issue the coupon may be claimed (s. 14), None for no deadline. ticket: what the
    system set (firmware/coupon_store.py ticket(): "loc", "a1", "a2", each at most a line), or None."""
    yield cfg.COUPON_SCHEME
    yield "COUPON DE REMBOURSEMENT"
    yield "REDEMPTION COUPON"
    if duplicate:
        yield "*** DUPLICATA / DUPLICATE ***"
        yield "NON NEGOCIABLE / NOT NEGOTIABLE"
    yield "Titulaire/Licence: " + cfg.LICENCE_HOLDER
    if ticket:
        for key in ("loc", "a1", "a2"):
            if ticket[key]:
                yield ticket[key]
    yield "Appareil/Machine: " + cfg.MACHINE_ID
    yield "Emis/Issued: " + stamp(rec["t"])
    yield "Valeur/Value: " + dollars(rec["c"])
    yield "Credits: %d" % rec["k"]
    if claim_s:
        yield "A reclamer avant/Claim by:"
        yield stamp(rec["t"] + claim_s)
    yield "Coupon no %d" % rec["s"]
    yield "No de controle/Control number:"


def lines(rec, cfg, duplicate=False, claim_s=None, ticket=None):
    """each_line's lines as a list."""
    return list(each_line(rec, cfg, duplicate, claim_s, ticket))
