# Ledger: credits and soft meters, committed before anything is shown, audited before play/payout.
from devtest import raises
from fakes_firmware import FixedOutcome, PowerCut, RamNvram
from firmware.ledger import AuditError, Ledger
from firmware.nvstore import Store


def fresh():
    nv = RamNvram()
    led = Ledger(Store(nv))
    assert not led.load()
    return nv, led


def reload(nv):
    led = Ledger(Store(nv))
    assert led.load()
    return led


def identity(led):
    m = led.meters
    return led.credits == m["acceptor_in"] + m["coin_out"] - m["coin_in"] - m["cashout"]


def test_session_meters_survive_restart():
    nv, led = fresh()
    led.accept(4)
    led.accept(4)
    led.wager(1)
    led.settle(FixedOutcome(1, 8))
    led.wager(1)
    led.settle(FixedOutcome(1, 0))
    again = reload(nv)
    assert again.credits == 14
    assert again.meters["acceptor_in"] == 8
    assert again.meters["coin_in"] == 2
    assert again.meters["coin_out"] == 8
    assert again.meters["games_played"] == 2
    assert again.meters["games_won"] == 1
    assert identity(again)
    assert again.cashout() == 14
    assert reload(nv).credits == 0
    assert reload(nv).meters["cashout"] == 14


def test_no_credit_extended():
    nv, led = fresh()
    led.accept(1)
    with raises(ValueError):
        led.wager(2)
    assert reload(nv).credits == 1


def test_wager_without_outcome_survives_a_cut():
    nv, led = fresh()
    led.accept(4)
    led.wager(3)
    nv.tear_after = 0
    with raises(PowerCut):
        led.settle(FixedOutcome(3, 30))
    again = reload(nv)
    assert again.game["phase"] == "wager" and again.game["bet"] == 3
    assert again.credits == 1 and again.meters["coin_in"] == 3
    again.settle(FixedOutcome(3, 30))  # the cabinet completes the same game after restart
    assert reload(nv).credits == 31


def test_settle_needs_matching_wager():
    nv, led = fresh()
    led.accept(4)
    with raises(AuditError):
        led.settle(FixedOutcome(1, 5))
    led.wager(1)
    with raises(AuditError):
        led.settle(FixedOutcome(2, 5))


def test_self_audit_catches_tampered_credits():
    nv, led = fresh()
    led.accept(4)
    led.credits += 100  # a fault that did not go through the meters
    with raises(AuditError):
        led.wager(1)
    with raises(AuditError):
        led.cashout()


def test_meters_roll_over_at_ten_digits():
    nv, led = fresh()
    led.meters["acceptor_in"] = 10 ** 10 - 2
    led.credits = 10 ** 10 - 2
    led.accept(4)
    assert led.meters["acceptor_in"] == 2
    led.audit()  # the identity holds modulo the rollover


def test_bytes_written_per_game_is_bounded():
    nv, led = fresh()
    led.accept(40)
    before = nv.bytes_written
    led.wager(1)
    led.settle(FixedOutcome(1, 2))
    per_game = nv.bytes_written - before
    assert per_game < 1024, per_game
