# Jeton's meters by SAS meter code (SAS 6.02 Table C-7; Monaco's public `SasMeterId` is an
# independent list of the same codes): what every meter long poll reads, and what 2F and 6F/AF ask
# for by code. Credits unless the name says a count; docs/sas.md has the table. An if-chain, not a
# dict: no table in the heap.
from board.compat import const

TOTAL_COIN_IN = const(0x00)
TOTAL_COIN_OUT = const(0x01)
TOTAL_JACKPOT = const(0x02)
HAND_PAID_CANCELLED = const(0x03)
TOTAL_CANCELLED = const(0x04)
GAMES_PLAYED = const(0x05)
GAMES_WON = const(0x06)
GAMES_LOST = const(0x07)
COIN_ACCEPTOR = const(0x08)
HOPPER_PAID = const(0x09)
BILLS = const(0x0B)
CURRENT_CREDITS = const(0x0C)
TICKET_CENTS_IN = const(0x0D)  # total SAS cashable ticket in (cents)
TICKET_COUNT_IN = const(0x11)  # total SAS cashable ticket in (quantity)
TICKET_IN = const(0x15)  # total ticket in (credits)
TICKET_OUT = const(0x16)
CASHABLE_TICKET_IN = const(0x28)  # total cashable ticket in (credits)
REGULAR_TICKET_IN = const(0x29)  # total regular cashable ticket in (credits)
REGULAR_TICKET_COUNT = const(0x35)  # regular cashable ticket in (quantity)
REGULAR_TICKET_CENTS = const(0x80)  # regular cashable ticket in (cents)
REGULAR_TICKET_COUNT_80 = const(0x81)  # regular cashable ticket in (quantity)
TOTAL_WON = const(0x22)
TOTAL_HAND_PAID = const(0x23)
TOTAL_DROP = const(0x24)
SINCE_POWER_UP = const(0x25)
SINCE_DOOR_CLOSED = const(0x26)
# not Table C-7 codes: meters only the fixed meter polls report (1C, 20), numbered past 0xFF
SLOT_DOOR_OPENED = const(0x100)
POWER_RESETS = const(0x101)
BILL_DOLLARS = const(0x102)


def value(m, code):
    """The meter `code` names, or None: Jeton keeps no such meter."""
    mt = m.ledger.meters
    if code == TOTAL_COIN_IN:
        return mt["coin_in"]  # credits wagered
    if code == TOTAL_COIN_OUT:
        return mt["coin_out"]  # credits won onto the credit meter
    if code == TOTAL_JACKPOT:
        return mt["jackpot"]  # wins paid by hand
    if code == HAND_PAID_CANCELLED:
        return mt["cancelled"]  # cash-outs paid by hand
    if code == TOTAL_CANCELLED:
        return mt["cashout"]  # every cash-out: hopper, hand, coupon
    if code == GAMES_PLAYED:
        return mt["games_played"]
    if code == GAMES_WON:
        return mt["games_won"]
    if code == GAMES_LOST:
        return mt["games_played"] - mt["games_won"]
    if code == COIN_ACCEPTOR:
        return mt["acceptor_in"]
    if code == HOPPER_PAID:
        return mt["hopper_out"]
    if code == BILLS:
        return mt["bill_in"]
    if code == CURRENT_CREDITS:
        return m.ledger.credits
    if code in (TICKET_IN, CASHABLE_TICKET_IN, REGULAR_TICKET_IN):
        from firmware.ticket_books import credits_in

        return credits_in(m.ledger)  # every ticket redeemed is a regular cashable one (firmware/sas/ticket_in.py)
    if code in (TICKET_CENTS_IN, REGULAR_TICKET_CENTS):
        from firmware.ticket_books import cents_in

        return cents_in(m.ledger)
    if code in (TICKET_COUNT_IN, REGULAR_TICKET_COUNT, REGULAR_TICKET_COUNT_80):
        from firmware.ticket_books import count_in

        return count_in(m.ledger)
    if code == TICKET_OUT:
        return mt["coupon_out"]
    if code == TOTAL_WON:
        return mt["coin_out"] + mt["jackpot"]
    if code == TOTAL_HAND_PAID:
        return mt["cancelled"] + mt["jackpot"]
    if code == TOTAL_DROP:
        return mt["acceptor_in"] + mt["bill_in"] + m.ledger.tickets_in()  # every credit in: coins, notes, tickets
    if code == SINCE_POWER_UP:
        return mt["games_played"] - m.played_at_boot
    if code == SINCE_DOOR_CLOSED:
        return mt["games_played"] - m.played_at_door
    if code == SLOT_DOOR_OPENED:
        return mt["door_main"]
    if code == POWER_RESETS:
        return mt["power_resets"]
    if code == BILL_DOLLARS:
        return mt["bill_in"] * m.cab.config.DENOM_CENTS // 100
    return None
