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


def lines(rec, cfg, duplicate=False, claim_s=None, ticket=None):
    """The coupon's text lines, French then English, every s. 9 field on a line of its own (the
    control number follows as text and bar code: board/printer_epic.py). rec: the committed coupon
    record (firmware/coupon_store.py): {"s" sequence, "c" cents, "k" credits, "t" time, ...}.
    claim_s: how long after its issue the coupon may be claimed (s. 14), None for no deadline.
    ticket: what the system set (firmware/coupon_store.py ticket(): "loc", "a1", "a2", each at most
    a line), or None."""
    out = [cfg.COUPON_SCHEME,
           "COUPON DE REMBOURSEMENT",
           "REDEMPTION COUPON"]
    if duplicate:
        out.append("*** DUPLICATA / DUPLICATE ***")
        out.append("NON NEGOCIABLE / NOT NEGOTIABLE")
    out.append("Titulaire/Licence: " + cfg.LICENCE_HOLDER)
    if ticket:
        for key in ("loc", "a1", "a2"):
            if ticket[key]:
                out.append(ticket[key])
    out += ["Appareil/Machine: " + cfg.MACHINE_ID,
            "Emis/Issued: " + stamp(rec["t"]),
            "Valeur/Value: " + dollars(rec["c"]),
            "Credits: %d" % rec["k"]]
    if claim_s:
        out += ["A reclamer avant/Claim by:", stamp(rec["t"] + claim_s)]
    out += ["Coupon no %d" % rec["s"],
            "No de controle/Control number:"]
    return out
