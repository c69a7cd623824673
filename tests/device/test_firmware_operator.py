# The operator's signed configuration (firmware/operator_config.py), the money basis a change of
# jurisdiction or credit value waits on (firmware/money_basis.py, firmware/startup.py
# firmware/configuration.py) and the operator's enrolment of an administrator (firmware/enrolment.py,
# console `enrol`), on both runtimes. The signatures are made by `cryptography` with a throwaway
# operator key (tests/fixtures/operator/vectors.json, tests/host/operator_vectors.py).
# mp-heap: 1024K  (the firmware's 256K, the 68 + 55 KB NVRAM images the fakes keep in RAM, the tests)
import binascii
import json

from fakes_access import ADMIN_PIN, accounts, blank, security
from fakes_console import Uart, run
from fakes_firmware import floor_of
from test_firmware_cabinet import cabinet, coins, steps

from firmware import config, enrolment, money_basis, operator_config
from firmware.accounts import LOST
from firmware.config import Config
from firmware.configuration import settle as settle_configuration
from firmware.console import Console

VECTORS = __file__.rpartition("/")[0] + "/../fixtures/operator/vectors.json"
PATH = "STATE/operator.json"


def _load():
    with open(VECTORS) as f:
        return json.load(f)


V = _load()
KEY = (binascii.unhexlify(V["n"]), V["e"])


def signed(name):
    for c in V["configs"]:
        if c["name"] == name:
            return PATH, c["file"].encode(), binascii.unhexlify(c["sig"])
    raise KeyError(name)


def settle(cab, overrides, op, key=KEY):
    """(the problems, the configuration the cabinet runs under) of a power-up with these."""
    return settle_configuration(cab.board, cab.ledger, [], dict(overrides), op, key)


def test_a_signed_configuration_checks_its_signature_machine_and_number():
    for name in ("vlt 1", "casino 2", "vlt 3 at 10 cents", "vlt 4 another game set"):
        d, why = operator_config.check(*signed(name), key=KEY, machine_id="JTN-EMU-0001", floor=None)
        assert why is None and d["config"] == int(name.split()[1]), (name, why)
    d, why = operator_config.check(*signed("vlt 4 another game set"), key=KEY, machine_id="JTN-EMU-0001", floor=1)
    assert d["GAMES"] == ("trefle-90", "sept-royal-88") and d["DENOM_CENTS"] == 25
    for name, floor, want in (
            ("vlt 6 signed by another key", None, PATH + ": not signed by the operator's key"),
            ("vlt 5 for another machine", None, PATH + ": for machine JTN-EMU-0002, not this one (JTN-EMU-0001)"),
            ("vlt 1", 2, PATH + ": configuration 1 is older than number 2, accepted here (never taken again)")):
        d, why = operator_config.check(*signed(name), key=KEY, machine_id="JTN-EMU-0001", floor=floor)
        assert d is None and why == want, (name, why)
    path, raw, sig = signed("vlt 1")
    bad = bytearray(raw)
    bad[raw.find(b"25")] = ord("5")  # 25 cents made 55: one byte of the signed file
    assert operator_config.check(path, bytes(bad), sig, KEY, "JTN-EMU-0001", None)[1] == \
        PATH + ": not signed by the operator's key"
    # code not from a signed image has no operator key: the file is read as it is (NOT VERIFIED)
    assert operator_config.check(path, bytes(bad), sig, None, "JTN-EMU-0001", None)[0]["DENOM_CENTS"] == 55


def test_a_malformed_configuration_is_named():
    for text, want in (("[]", "not one JSON object"), ('{"config": 1}', "no format"),
                       ('{"format": "jeton-operator-config/1", "config": 0, "machine": "m", "JURISDICTION": "vlt",'
                        ' "DENOM_CENTS": 25, "GAMES": []}', "config must be a number from 1 to 999999999"),
                       ('{"format": "x", "config": 1, "machine": "m", "JURISDICTION": "vlt", "DENOM_CENTS": 25,'
                        ' "GAMES": []}', "format is not jeton-operator-config/1"),
                       ('{"COINS": 1}', "unknown field COINS")):
        try:
            operator_config.parse(text.encode())
            raise AssertionError(text)
        except ValueError as e:
            assert str(e) == want, (text, str(e))


def test_settings_or_the_command_line_may_not_contradict_the_signed_configuration():
    d = operator_config.parse(signed("vlt 1")[1])
    assert operator_config.contradictions(d, {"GAMES": ("sept-royal-88",), "JURISDICTION": "vlt"}) == []
    assert operator_config.contradictions(d, {"DENOM_CENTS": 10, "COINS": {}}) == [
        "DENOM_CENTS: the operator's signed configuration says 25; the settings file or the command line may not "
        "change it"]


def test_a_vlt_configuration_is_taken_only_signed_and_never_an_older_one():
    cab, board, acc = cabinet()
    led = cab.ledger
    assert money_basis.basis(led.st) is None  # fresh books: the first configuration sets it
    over = {"JURISDICTION": "vlt", "DENOM_CENTS": 25, "GAMES": ("sept-royal-88",)}
    problems, cfg = settle(cab, over, signed("vlt 1"))
    assert problems == [] and cfg.JURISDICTION == "vlt" and money_basis.basis(led.st) == ("vlt", 25)
    assert config.JURISDICTION == "casino"  # the defaults are never written to: the cabinet is given cfg
    assert board.floor("config").read() == 1
    assert led.events()[-1][2:] == ["basis", "vlt at 25 cents a credit (operator configuration 1)"]
    # the same configuration again at the next power-up: nothing to record
    n = len(led.events())
    assert settle(cab, over, signed("vlt 1"))[0] == [] and len(led.events()) == n
    # unsigned: the jurisdiction left by the settings file, or no configuration at all
    problems, cfg = settle(cab, {"JURISDICTION": "casino"}, None)
    assert problems == ["JURISDICTION: under vlt the game set, credit value and jurisdiction come only from a "
                        "configuration the operator signs; there is none (operator.json)"], problems
    assert (cfg.JURISDICTION, cfg.DENOM_CENTS) == ("vlt", 25)  # the committed rules stay
    assert settle(cab, over, signed("vlt 6 signed by another key"))[0] == [PATH + ": not signed by the operator's key"]
    # a newer signed one is taken, and from then on the older never again
    over4 = dict(over, GAMES=("trefle-90", "sept-royal-88"))
    problems, cfg = settle(cab, over4, signed("vlt 4 another game set"))
    assert problems == [] and board.floor("config").read() == 4
    assert cfg.GAMES == ("trefle-90", "sept-royal-88") and config.GAMES == ("sept-royal-87",)
    assert settle(cab, over, signed("vlt 1"))[0] == [
        PATH + ": configuration 1 is older than number 4, accepted here (never taken again)"]
    # the floor is the board's: the books formatted (a RAM clear) do not reopen the door
    led.format()
    assert settle(cab, over, signed("vlt 3 at 10 cents"))[0][0].endswith("older than number 4, accepted here "
                                                                        "(never taken again)")


def owe_coupon(led, cents):
    """The books commit a coupon for every credit on the meter (numbered as a coupon memory's draft
    would number it: firmware/coupon_store.py; the number itself does not matter here)."""
    k = led.credits
    rec = {"s": 1, "n": "000042420000000011", "c": k * cents, "k": k, "t": 0, "st": "owed", "d": 0, "why": "cash-out"}
    assert led.issue_coupon(rec) is rec


def test_a_jurisdiction_change_waits_while_money_is_owed_under_the_old_rules():
    # issue 22.6: vlt -> casino (or back) with credits, a coupon, a hand pay or a hopper payout owed
    cab, board, acc = cabinet()
    led = cab.ledger
    vlt = {"JURISDICTION": "vlt", "DENOM_CENTS": 25, "GAMES": ("sept-royal-88",)}
    casino = dict(vlt, JURISDICTION="casino")
    assert settle(cab, vlt, signed("vlt 1"))[0] == []
    coins(cab, acc, 2)
    problems, cfg = settle(cab, casino, signed("casino 2"))
    assert problems == ["change to casino at 25 cents a credit waits: 8 credits on the meter under vlt at 25 "
                        "cents (paid by those rules first)"], problems
    assert (cfg.JURISDICTION, cfg.DENOM_CENTS) == ("vlt", 25) and board.floor("config").read() == 1
    # a coupon owed (the credits gone from the meter into it), then a hand-pay lock, a hopper payout
    owe_coupon(led, 25)
    assert money_basis.owed(led) == ["coupon 1 owed"]
    led.coupon_issued(1)
    led.st["credits"] = 5
    led._add("acceptor_in", 5)
    led.cashout(hand_pay=True)
    assert money_basis.owed(led) == ["5 credits on the meter", "a handpay of 5 credits to pay"]
    led.clear_lock()
    led.start_payout(1, 4)
    assert money_basis.owed(led) == ["a hopper payout to book"]
    led.abandon_payout()
    assert money_basis.owed(led) == []
    # nothing owed: the signed change is taken, recorded with its event
    problems, cfg = settle(cab, casino, signed("casino 2"))
    assert problems == [] and cfg.JURISDICTION == "casino"
    assert money_basis.basis(led.st) == ("casino", 25) and board.floor("config").read() == 2
    assert led.events()[-1][3] == "vlt at 25 -> casino at 25 cents a credit (operator configuration 2)"


def test_a_credit_value_change_with_credits_on_the_meter_is_money_too():
    cab, board, acc = cabinet()
    led = cab.ledger
    vlt = {"JURISDICTION": "vlt", "DENOM_CENTS": 25, "GAMES": ("sept-royal-88",)}
    assert settle(cab, vlt, signed("vlt 1"))[0] == []
    coins(cab, acc, 1)
    ten = dict(vlt, DENOM_CENTS=10)
    problems, cfg = settle(cab, ten, signed("vlt 3 at 10 cents"))
    assert problems == [
        "change to vlt at 10 cents a credit waits: 4 credits on the meter under vlt at 25 cents (paid by those "
        "rules first)"]
    assert cfg.DENOM_CENTS == 25  # 4 credits are $1.00, not $0.40
    owe_coupon(led, cfg.DENOM_CENTS)
    assert led.coupons()[-1]["c"] == 100
    led.coupon_issued(1)
    problems, cfg = settle(cab, ten, signed("vlt 3 at 10 cents"))
    assert problems == [] and cfg.DENOM_CENTS == 10


def test_a_note_of_unknown_fate_is_owed_under_the_old_rules():
    # `make fuzz` (issue 22.9's rules): the validator lost its power with a $20 note pending (80
    # credits at 25 cents), then the operator signed casino at 10 cents and the change was taken; the
    # attendant's 'note stacked' would then credit 80 credits of 10 cents, $8 for the player's $20
    cab, board, acc = cabinet()
    led = cab.ledger
    vlt = {"JURISDICTION": "vlt", "DENOM_CENTS": 25, "GAMES": ("sept-royal-87",)}
    problems, cfg = settle(cab, vlt, signed("vlt 1"))
    assert problems == []
    led.bill_escrow(3, 80, 1)
    led.bill_unproven(0, "CA0020A", "validator reset (event counter 1 -> 0)")
    assert money_basis.owed(led) == ["a note of unknown fate to settle"]
    problems, cfg = settle(cab, dict(vlt, DENOM_CENTS=10), signed("vlt 3 at 10 cents"))
    assert problems == [
        "change to vlt at 10 cents a credit waits: a note of unknown fate to settle under vlt at 25 cents (paid "
        "by those rules first)"]
    assert cfg.DENOM_CENTS == 25
    led.settle_note(True, "boss")
    assert led.credits == 80 and money_basis.owed(led) == ["80 credits on the meter"]


def test_a_ram_clear_records_the_basis_the_cabinet_runs_under():
    cab, board, acc = cabinet(cfg=Config({"JURISDICTION": "vlt", "DENOM_CENTS": 10}))
    board.pins["key_audit"].value(1)
    steps(cab, 10)
    cab.ram_clear("boss")
    assert money_basis.basis(cab.ledger.st) == ("vlt", 10)


# --- enrolment -------------------------------------------------------------------------------------

def enrol_lines(name):
    for e in V["enrolments"]:
        if e["name"] == name:
            h = e["sig"]
            return [h[i:i + enrolment.LINE_HEX] for i in range(0, len(h), enrolment.LINE_HEX)]
    raise KeyError(name)


class ImageKey:
    """The image's operator key as the test says (jeton_key.OPERATOR: a firmware image's alone)."""

    def __init__(self, key=KEY):
        self.key = key

    def __enter__(self):
        from firmware import authenticate

        self.was = authenticate.builtin_operator
        authenticate.builtin_operator = lambda: self.key
        return self

    def __exit__(self, *exc):
        from firmware import authenticate

        authenticate.builtin_operator = self.was


def image_key(test):
    """The test runs with the operator's key of the vectors in the image."""
    def run():
        with ImageKey():
            test()
    return run


def lost_console():
    """A machine whose security memory was lost: accounts gone, the loss remembered."""
    sec = security()
    sec.reset("test: lost", LOST)
    cab, board, acc = cabinet(audit=sec)
    users = accounts(sec, board.ticks_ms)
    return Console(Uart(), cab, users, sec), cab, board, users, sec


def key_on(board, cab):
    board.pins["key_audit"].value(1)
    steps(cab, 10)


def type_enrolment(con, uid, number, lines):
    assert run(con, "enrol %s %d" % (uid, number)) == ["new PIN for administrator %s:" % uid]
    assert run(con, ADMIN_PIN) == ["the same again:"]
    out = run(con, ADMIN_PIN)
    for i, line in enumerate(lines):
        assert out == ["signature line %d of 12:" % (i + 1)], out
        out = run(con, line)
    return out


def test_the_board_id_is_the_hmac_of_the_machine_secret():
    # computed on the host with Python's hmac (tests/host/operator_vectors.py) for TEST_SECRET
    from fakes_firmware import TEST_SECRET

    assert enrolment.board_id(TEST_SECRET) == V["board"]


def test_a_new_machine_enrols_with_the_audit_key_once_and_never_again():
    sec = security()
    cab, board, acc = cabinet(audit=sec)
    con = Console(Uart(), cab, accounts(sec, board.ticks_ms), sec)
    key_on(board, cab)
    assert board.floor("enrol").read() is None
    run(con, "setup boss")
    run(con, ADMIN_PIN)
    assert run(con, ADMIN_PIN) == ["administrator boss created; logged in"]
    assert board.floor("enrol").read() == enrolment.FIRST  # the board remembers, apart from the NVRAM part
    # the security memory wiped (its bytes gone, the board kept): the audit key alone no longer does
    blank()  # the security memory's part (the board's floors are not on it)
    sec = security()
    con = Console(Uart(), cab, accounts(sec, board.ticks_ms), sec)
    assert run(con, "setup evil") == ["error: " + enrolment.SIGNED_ONLY + " ('enrol' says how)"]
    assert run(con, "meters") == ["refused: no account: " + enrolment.SIGNED_ONLY + " ('enrol' says how)"]


@image_key
def test_a_lost_security_memory_takes_only_the_operators_enrolment():
    con, cab, board, users, sec = lost_console()
    assert floor_of(board.nvram, "enrol").read() is None  # never enrolled: the loss alone is enough
    key_on(board, cab)
    assert run(con, "setup evil") == ["error: " + enrolment.SIGNED_ONLY + " ('enrol' says how)"]
    assert run(con, "enrol") == ["board %s: ask the operator for enrolment number 1 of an account id; then 'enrol ID "
                                 "N', the PIN twice and the signature in 12 lines of 64 hex digits" % V["board"]]
    for name in ("another key", "another board", "board 2 boss"):  # number 1 typed, each signature wrong for it
        out = type_enrolment(con, "boss", 1, enrol_lines(name))
        assert out == ["error: not an enrolment the operator signed for board %s, number 1, boss: nothing changed"
                       % V["board"]], (name, out)
    assert users.empty() and board.floor("enrol").read() is None
    assert type_enrolment(con, "boss", 1, enrol_lines("board 1 boss")) == [
        "administrator boss enrolled (operator's enrolment 1); logged in"]
    assert users.listing() == [("boss", "administrator")] and board.floor("enrol").read() == 1
    rec = sec.records()[-1]
    assert rec[2:] == ["boss", "enrol", "first administrator boss by the operator's enrolment 1"]
    assert ADMIN_PIN not in json.dumps(sec.records())


def test_no_piece_is_kept_where_no_enrolment_is_needed():
    sec = security()
    cab, board, acc = cabinet(audit=sec)
    con = Console(Uart(), cab, accounts(sec, board.ticks_ms), sec)
    con.keep_enrol_reserve()
    assert con.enrol_reserve is None  # a new machine: the audit key and 'setup', no signature


@image_key
def test_an_enrolment_is_never_used_twice_and_needs_the_audit_key():
    con, cab, board, users, sec = lost_console()
    assert run(con, "enrol boss 1") == ["error: turn the audit key first"]
    key_on(board, cab)
    assert type_enrolment(con, "boss", 1, enrol_lines("board 1 boss"))[0].startswith("administrator boss enrolled")
    # lost again: enrolment 1 is spent (the board's floor), number 2 is taken
    floors = board.nvram.floors
    con, cab, board, users, sec = lost_console()
    board.nvram.floors = floors
    key_on(board, cab)
    assert run(con, "enrol boss 1") == ["error: enrolment 1 was used or is older: the next is above 1"]
    assert type_enrolment(con, "boss", 2, enrol_lines("board 2 boss"))[0].startswith("administrator boss enrolled")
    # a signature line that is not 64 hex digits abandons it, nothing changed
    con, cab, board, users, sec = lost_console()
    board.nvram.floors = floors
    key_on(board, cab)
    for bad in ("zz" * 32, "ab" * 31):
        out = type_enrolment(con, "boss", 3, [bad])
        assert out == ["error: a signature line is 64 hex digits: enrolment abandoned"], out
    assert users.empty()
    with ImageKey(None):  # code not from a signed image: no key to check an enrolment with
        assert run(con, "enrol boss 3") == [
            "error: no operator key in this image (code not from a signed image): no enrolment"]


def test_reading_the_configuration_file_names_what_is_missing_or_too_large():
    from devtest import rmtree, tmpdir

    d = tmpdir("opcfg")
    try:
        path = d + "/operator.json"
        assert operator_config.read(path) == (None, None, None)  # none: the casino keeps plain settings
        with open(path, "wb") as f:
            f.write(b"{}")
        assert operator_config.read(path) == (b"{}", None, path + ".sig: missing (the operator's configuration is "
                                                             "not signed)")
        with open(path + ".sig", "wb") as f:
            f.write(b"x" * 384)
        assert operator_config.read(path) == (b"{}", b"x" * 384, None)
        with open(path, "wb") as f:
            f.write(b" " * (operator_config.MAX_FILE + 1))
        assert operator_config.read(path) == (None, None, path + ": larger than 2048 bytes")
    finally:
        rmtree(d)


def test_a_configuration_that_is_not_json_is_named_after_its_signature():
    cab, board, acc = cabinet()
    op = (PATH, b"{not json", b"\x00" * 384)
    assert settle(cab, {}, op)[0] == [PATH + ": not signed by the operator's key"]
    problems = settle(cab, {}, op, key=None)[0]  # no key to check with: what it says is named
    assert len(problems) == 1 and problems[0].startswith(PATH + ": not JSON: "), problems


@image_key
def test_no_enrolment_while_an_account_exists():
    con, cab, board, users, sec = lost_console()
    key_on(board, cab)
    assert type_enrolment(con, "boss", 1, enrol_lines("board 1 boss"))[0].startswith("administrator boss enrolled")
    run(con, "logout")
    assert run(con, "enrol boss 2") == ["error: accounts exist: 'login ID'"]
    assert run(con, "setup boss") == ["error: accounts exist: 'login ID'"]
