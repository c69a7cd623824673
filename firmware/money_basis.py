# The rules the books' money arose under (issue 22.6): the jurisdiction and the credit value, kept
# in the books' state block as st["basis"] = [jurisdiction, cents per credit]. A credit is worth
# what a credit was worth when it went on the meter, a coupon owed is printed by a coupon cabinet, a
# hopper payout cut by the power is booked from the hopper's record; none of that may be stranded
# by a configuration that changes the rules across a reboot (vlt -> casino with a coupon owed booted
# idle and never printed it; casino -> vlt after a cut hopper payout sat in `payout` forever).
#
# The decision: a change of the basis is refused while money is owed under the old one. The cabinet
# then boots under the committed basis in the config tilt, which names the change that waits and
# what is owed (no play, no money in); what is owed is paid by the committed rules (the coupon
# printed, the hopper's record booked, a hand pay keyed, credits cashed out), and the change is
# taken at the first power-up with nothing owed, with a `basis` event.

def basis(st):
    """(jurisdiction, cents per credit) the books' money arose under, or None (fresh books, or books
    from before the basis was kept: nothing arose under another basis that they know of)."""
    b = st.get("basis")
    return (b[0], b[1]) if b else None


def owed(ledger):
    """What the books owe under their basis, as short texts ([] when nothing)."""
    st = ledger.st
    out = []
    if st["credits"]:
        out.append("%d credits on the meter" % st["credits"])
    rec = ledger.coupon_owed()
    if rec is not None:
        out.append("coupon %d owed" % rec["s"])
    if st.get("paying") or ledger.hopper_record():
        out.append("a hopper payout to book")
    if st["lock"]:
        out.append("a %s of %d credits to pay" % (st["lock"]["kind"], st["lock"]["amount"]))
    g = st["game"]
    if g and g["phase"] in ("wager", "spin"):
        out.append("a game to complete")
    if st.get("bill"):
        out.append("a note in escrow")
    if st.get("unk"):  # its credits are the old basis's: 80 at 25 cents, not 80 at 10
        out.append("a note of unknown fate to settle")
    if st.get("tour"):
        out.append("a tournament under way")
    return out


def check(ledger, juris, denom):
    """None when the books may run under (juris, denom); else the config tilt's reason: the change
    that waits and what is owed under the committed basis."""
    have = basis(ledger.st)
    if have is None or have == (juris, denom):
        return None
    due = owed(ledger)
    if not due:
        return None
    return "change to %s at %d cents a credit waits: %s under %s at %d cents (paid by those rules first)" % (
        juris, denom, ", ".join(due), have[0], have[1])


def record(ledger, juris, denom, why):
    """The books run under (juris, denom) from now on: kept with its event in one commit."""
    have = basis(ledger.st)
    ledger.st["basis"] = [juris, denom]
    ledger.event("basis", "%s%s at %d cents a credit (%s)" % (
        "%s at %d -> " % have if have else "", juris, denom, why))
