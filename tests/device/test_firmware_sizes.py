# Records sized by construction (issue 9, fault 5): every critical-memory block holds the worst case
# its fields allow, computed here from the bounds the firmware enforces on entry (meters roll over at
# 10 digits, texts are cut on entry, tournament figures are bounded), not from what a test session
# happened to write. A block that could overflow would turn an ordinary commit into a RAM error.
# mp-heap: 448K  (a 68 KB NVRAM image in RAM beside the largest game model)
import gc
import json
import os

from board import hal
from firmware import eventlog, tournament
from firmware.cabinet import BOOT_TILTS, KEY_CLEARABLE
from firmware.ledger import CHUNK_SIZE, EVENTS_PER_CHUNK, GAME_SIZE, LAYOUT, METERS, STATE_SIZE, TILT_TEXT, Ledger
from fakes_firmware import RamNvram, memory
from games.keno_model import MAX_SPOTS, KenoModel
from games.model import Model

BIG = 10 ** 10 - 1  # a 10-digit meter at its last value before it rolls over
MODELS = "games/models"


def worst_state():
    st = {"m": {}, "credits": BIG, "bet": BIG, "lock": {"kind": "handpay", "amount": BIG}, "ev": BIG, "gn": BIG,
          "game": {"phase": "wager", "bet": BIG, "before": BIG, "t": 2 ** 32 - 1, "id": "x" * 32, "tour": 1,
                   "award": BIG, "fixed": BIG, "limit": BIG, "slot": 9,
                   "deck": "ff" * 53},  # a dealt poker hand's deck, 53 cards (firmware/play_poker.py)
          "tilts": {}, "doors": {}, "acc_ev": 255, "ref": BIG, "paying": {"ref": BIG, "coins": BIG, "cpc": BIG},
          "prog_n": BIG * 1000, "emb": {},
          "rel": 999999999,
          "bill_ev": 255, "bill": {"t": 16, "k": BIG}}  # a note being stacked (firmware/bill_books.py)  # the release number (firmware/authenticate.py): MAJOR.MINOR.PATCH, each 0-999
    for name in METERS:
        st["m"][name] = BIG
    for kind in KEY_CLEARABLE + ("audit",):  # BOOT_TILTS are never stored
        st["tilts"][kind] = "x" * TILT_TEXT
    for name in hal.DOORS + hal.KEYS:
        st["doors"][name] = 1
    for name in hal.METERS:
        st["emb"][name] = 9999999  # 7-digit counters
    t = tournament.new(tournament.MAX_FEE, tournament.MAX_CREDITS, tournament.MAX_GAMES, 100, "2026-12-05",
                       tournament.MAX_HOURS, "x" * tournament.NAME_LEN)
    t["entries"] = t["fees"] = BIG
    t["scores"] = [[BIG, BIG]] * tournament.TOP
    t["session"] = {"entry": BIG, "credits": BIG, "left": tournament.MAX_GAMES}
    st["tour"] = t
    st["picks"] = [99] * MAX_SPOTS  # a keno card (firmware/play_keno.py)
    return st


def test_the_state_block_holds_every_field_at_its_bound():
    n = len(json.dumps(worst_state()))
    assert n <= STATE_SIZE, (n, STATE_SIZE)
    assert "game" in BOOT_TILTS  # and the tilts found at power-up are not in it


def test_the_coupon_block_holds_its_last_coupons_at_their_bounds():
    from firmware import coupon_books
    from firmware.ledger import COUPON_SIZE

    rec = {"s": 10 ** 8 - 1, "n": "9" * 14, "c": BIG * 100, "k": BIG, "t": 2 ** 32 - 1, "st": "issued",
           "d": coupon_books.DUP_MAX}  # 8-digit sequence, a credit meter at its bound, in cents
    assert len(json.dumps([rec] * coupon_books.KEEP)) <= COUPON_SIZE


def test_an_event_chunk_holds_its_events_whatever_their_texts():
    assert EVENTS_PER_CHUNK * eventlog.RECORD <= CHUNK_SIZE
    chunk = b""
    for i in range(EVENTS_PER_CHUNK):
        chunk = eventlog.pack(chunk, BIG, 2 ** 32 - 1, "tournament-start", '"\\\u00e9' * 200)
    assert len(chunk) <= CHUNK_SIZE
    n, t, code, text = eventlog.unpack(chunk)[-1]
    assert len(text) == eventlog.TEXT and set(text) <= set('"\\?') and code == "tournament-s"


def test_a_recall_record_of_every_shipped_game_fits_at_its_longest():
    for name in sorted(os.listdir(MODELS)):
        with open(MODELS + "/" + name) as f:
            raw = json.load(f)
        if raw.get("format") == "jeton-poker/1":  # video poker: the deck order (53 cards at most), then the holds
            rec = {"n": BIG, "t": 2 ** 32 - 1, "id": raw["id"], "bet": BIG, "before": BIG, "after": BIG, "win": BIG,
                   "hand": False, "draws": [52] * 53 + [31], "h": "f" * 32, "forfeit": "x" * eventlog.TEXT,
                   "prog": [BIG, BIG], "tour": BIG, "in": BIG}
            assert len(json.dumps(rec)) <= GAME_SIZE, (raw["id"], len(json.dumps(rec)), GAME_SIZE)
            raw = rec = None
            continue
        if raw.get("format") == "jeton-keno/1":  # 10 picks then 20 numbers drawn, each up to 80
            m = KenoModel(raw)
            draws = [m.numbers] * (MAX_SPOTS + m.drawn)
            m.free = m.cap = None
        else:
            m = Model(raw)
            draws = None
        raw = None
        longest = 0
        for rs in (m.base, m.free) if m.free else (m.base,) if draws is None else ():
            for strip in rs.strips:
                longest = max(longest, len(strip) - 1)
        spins = 1 + (m.cap or 0)  # the base spin, then at most `cap` free spins in all
        rec = {"n": BIG, "t": 2 ** 32 - 1, "id": m.id, "bet": BIG, "before": BIG, "after": BIG, "win": BIG,
               "hand": False, "draws": draws or [longest] * (m.nreels * spins), "h": "f" * 32,
               "forfeit": "x" * eventlog.TEXT, "prog": [BIG, BIG], "tour": BIG, "in": BIG}
        n = len(json.dumps(rec))
        assert m.free is None or m.cap is not None, "%s: uncapped free spins cannot be bounded" % m.id
        assert n <= GAME_SIZE, (m.id, n, GAME_SIZE)
        m = rec = None


def test_a_tournament_with_the_longest_figures_and_name_commits_and_reboots():
    gc.collect()
    nv = RamNvram(69632)
    led = Ledger(memory(nv))
    led.open()
    led.tour_start(tournament.MAX_FEE, tournament.MAX_CREDITS, tournament.MAX_GAMES, 100, "2026-12-05",
                   tournament.MAX_HOURS, "9" * tournament.NAME_LEN)
    for i in range(3 * EVENTS_PER_CHUNK):
        led.event("game-off", "aurore-88: " + "boot check needs more memory " * 5)
    again = Ledger(memory(nv))
    assert again.open() == [] and again.tour["name"] == "9" * tournament.NAME_LEN
    assert len(again.events()) == 3 * EVENTS_PER_CHUNK + 1


def test_the_layout_fits_below_the_security_memory():
    total = 0
    for name, cap in LAYOUT:
        total += cap
    gc.collect()
    from firmware.audit import SEC_BASE

    mem = memory(RamNvram(SEC_BASE))  # raises RamError when the layout outgrows the part below it
    assert mem.size <= SEC_BASE and total < mem.size
