# Records sized by construction (issue 9, fault 5): every critical-memory block holds the worst case
# its fields allow, computed here from the bounds the firmware enforces on entry (meters roll over at
# 10 digits, texts are cut on entry, tournament figures are bounded), not from what a test session
# happened to write. A block that could overflow would turn an ordinary commit into a RAM error.
# mp-heap: 640K  (a 68 KB NVRAM image in RAM beside the largest game model, all compiled from source:
# 448K was short once the games' model reader and limits were, 512K once the ledger's preallocated
# state and chunk buffers and the table play were; the board's own heap is the size tests' and bench_heap's)
import gc
import json
import os

from devtest import raises
from fakes_firmware import RamNvram, memory

from board import hal
from firmware import eventlog, table_bounds, tournament
from firmware.bill_books import WHY_TEXT
from firmware.cabinet import BOOT_TILTS, KEY_CLEARABLE
from firmware.ledger import CHUNK_SIZE, EVENTS_PER_CHUNK, GAME_SIZE, LAYOUT, METERS, STATE_SIZE, TILT_TEXT, Ledger
from firmware.table_bounds import KEY_LEN, MAX_CREDITS, MAX_KEYS
from games.cardtable_games import RECORD as CARD_TABLES
from games.keno_model import MAX_SPOTS, KenoModel
from games.model import Model
from games.table_check import FORMATS as TABLE_FORMATS

BIG = 10 ** 10 - 1  # a 10-digit meter at its last value before it rolls over
MODELS = "games/models"


def worst_game():
    """The game record at its longest: the longest of its phases' records (firmware/game_books.py,
    firmware/tournament_books.py), each with every field it may carry at its bound. A wager: a
    dealt poker hand's deck, 53 cards (firmware/play_poker.py; a table game's stake is shorter),
    money in while it is open, the SAS controller's level a linked progressive's hit pays; a
    tournament's wager has neither of the last two; the reels turning: the award pending, the
    progressive's fixed award, the jackpot limit, the recall slot, money in, the level. Before
    issue 25's level the test took the union of them all (3,194 bytes in all)."""
    wager = {"phase": "wager", "bet": BIG, "before": BIG, "t": 2 ** 32 - 1, "id": "x" * 32, "deck": "ff" * 53,
             "in": BIG, "lp": BIG}
    tour = {"phase": "wager", "bet": BIG, "before": BIG, "t": 2 ** 32 - 1, "tour": 1, "id": "x" * 32,
            "deck": "ff" * 53}
    spin = {"phase": "spin", "bet": BIG, "award": BIG, "fixed": BIG, "limit": BIG, "slot": 9, "in": BIG, "lp": BIG}
    done = {"phase": "done", "bet": BIG, "award": BIG, "slot": 9}
    longest = wager
    for g in (tour, spin, done):
        if len(json.dumps(g)) > len(json.dumps(longest)):
            longest = g
    return longest


def worst_state():
    st = {"m": {}, "credits": BIG, "bet": BIG, "lock": {"kind": "handpay", "amount": BIG}, "ev": BIG, "gn": BIG,
          "game": worst_game(),
          "tilts": {}, "doors": {}, "acc_ev": 255, "ref": BIG, "paying": {"ref": BIG, "coins": BIG, "cpc": BIG},
          "prog_n": BIG * 1000, "prog_r": BIG * 1000, "emb": {},  # the meter and its roll-over (1/q units)
          "cl": "x" * 8,  # a RAM clear's account until the security log has it (accounts.MAX_ID)
          "rel": 999999999,  # the release number (firmware/authenticate.py): MAJOR.MINOR.PATCH, each 0-999
          "basis": ["casino", 100000],  # the longest profile name, DENOM_CENTS at its bound (firmware/money_basis.py)
          "bill_ev": 255, "bill": {"t": 16, "k": BIG, "c": 255},  # a note being stacked (firmware/bill_books.py)
          "unk": {"id": "type 16", "k": BIG, "s": 2 ** 32 - 1, "why": "x" * WHY_TEXT}}  # a note of unknown fate
    for name in METERS:
        st["m"][name] = BIG
    # "host": the central system's shut down (SAS 01), kept in the books (firmware/cabinet.py host_disable)
    for kind in KEY_CLEARABLE + ("audit", "prize", "note", "host"):  # BOOT_TILTS are never stored
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
    # a table game's stake is the game's "deck" (MAX_KEYS x 4 hex digits: within the poker deck's 106)
    # and the number of the recall record whose standing wagers were refunded (firmware/play_table.py)
    assert len(table_bounds.pack([(0xFFF, 0xF)] * MAX_KEYS)) <= len(st["game"]["deck"])
    st["tref"] = BIG
    return st



def test_the_state_block_holds_every_field_at_its_bound():
    n = len(json.dumps(worst_state()))
    assert n <= STATE_SIZE, (n, STATE_SIZE)
    assert "game" in BOOT_TILTS  # and the tilts found at power-up are not in it


def test_the_books_coupon_block_holds_the_latest_coupon_at_its_bounds():
    from firmware import coupon_books, coupon_number, coupon_store
    from firmware.ledger import COUPON_SIZE

    rec = {"s": coupon_number.SEQ_MAX, "n": "9" * coupon_number.DIGITS, "c": 2 ** 32 - 1, "k": 2 ** 32 - 1,
           "t": 2 ** 32 - 1, "st": "issued", "d": coupon_store.DUP_MAX,
           "why": "automatic coupon", "v": 1}  # every field at what a coupon record holds (coupon_store._FMT)
    # and beside it a cash-out waiting for the system's number (SAS 57/58)
    asked = {"st": coupon_books.ASKED, "k": 2 ** 32 - 1, "c": 2 ** 32 - 1, "t": 2 ** 32 - 1, "why": "automatic coupon"}
    assert len(json.dumps([rec] * coupon_books.KEEP + [asked])) <= COUPON_SIZE


def test_the_coupon_memory_full_at_its_bounds_commits_reopens_and_lists_in_a_small_heap():
    """The worst-case coupon store: every slot taken by a record whose fields are at their bounds,
    none acknowledged. It fits its chunks, fits the part above the security memory, reopens, and is
    listed a record at a time (the console's `coupons json`) without the list in the heap."""
    from fakes_firmware import TEST_SECRET, MemCounter

    from firmware import coupon_number, coupon_store
    from firmware.audit import JOURNAL as SEC_JOURNAL
    from firmware.audit import LAYOUT as SEC_LAYOUT
    from firmware.audit import SEC_BASE
    from firmware.critmem import CriticalMemory

    class Part:  # a 128 KB part, never read or written: the constructors only place their layouts on it
        size = coupon_store.PART

    sec = CriticalMemory(Part(), SEC_LAYOUT, SEC_JOURNAL, TEST_SECRET, MemCounter(), base=SEC_BASE)
    assert SEC_BASE + sec.size <= coupon_store.CPN_BASE, (SEC_BASE + sec.size, coupon_store.CPN_BASE)
    mem = coupon_store.open_memory(Part(), TEST_SECRET, MemCounter())  # at CPN_BASE: RamError if it outgrew the part
    assert coupon_store.CPN_BASE + mem.size <= coupon_store.PART
    sec = mem = None
    gc.collect()
    assert coupon_store.CHUNK_BYTES == coupon_store.PER_CHUNK * coupon_store.RECORD
    # the layout is written out (kept in flash when frozen): it is the head and CHUNKS chunks of CHUNK_BYTES
    # and the system's ticket data (SAS 7B-7D), every field at its bound
    assert coupon_store.LAYOUT == (("cv", coupon_store.HEAD),) + tuple(
        ("c%d" % i, coupon_store.CHUNK_BYTES) for i in range(coupon_store.CHUNKS)) + (("tk", coupon_store.TK_SIZE),)
    nv = RamNvram(coupon_store.PART - coupon_store.CPN_BASE)
    counter = MemCounter()
    store = coupon_store.CouponStore(coupon_store.open_memory(nv, TEST_SECRET, counter, base=0), TEST_SECRET)
    store.open()
    store.set_validation_id(coupon_number.VID_MAX, coupon_number.SEQ_MAX - coupon_store.CAPACITY - 1)
    worst = {"flags": 0xFF, "host": 0xFFFF, "days": coupon_store.NEVER, "rdays": coupon_store.NEVER,
             "loc": "~" * coupon_store.TEXT_MAX, "a1": "~" * coupon_store.TEXT_MAX, "a2": "~" * coupon_store.TEXT_MAX}
    assert len(coupon_store.pack_ticket(worst)) == coupon_store.TK_SIZE
    store.set_ticket(worst)
    biggest = coupon_store.system_number(99, 10 ** 16 - 1)  # a system's number, every digit 9 (SAS 58)
    for i in range(coupon_store.CAPACITY):
        rec = store.draft(2 ** 32 - 1, 2 ** 32 - 1, 2 ** 32 - 1, "automatic coupon",
                          biggest[:-4] + "%04d" % i if i % 2 else None)
        rec["d"] = coupon_store.DUP_MAX
        store.add(rec)
        store.issued(rec["s"])
    again = coupon_store.CouponStore(coupon_store.open_memory(nv, TEST_SECRET, counter, base=0), TEST_SECRET)
    assert again.open() == [] and again.waiting() == coupon_store.CAPACITY
    assert again.ticket() == worst and again.system()
    first, second = again.records()[:2]
    assert first["c"] == first["k"] == first["t"] == 2 ** 32 - 1 and first["d"] == coupon_store.DUP_MAX
    assert first["n"][:8] == "%08d" % coupon_number.VID_MAX and coupon_number.valid(first["n"])
    assert second["n"] == biggest[:-4] + "0001" and second["v"] == 1 and "v" not in first
    with raises(ValueError):
        again.draft(2 ** 32, 1, 0, "cash-out")  # beyond 32 bits: refused, never truncated
    gc.collect()
    if hasattr(gc, "mem_alloc"):  # MicroPython: what a listing holds at once
        before = gc.mem_alloc()
        peak = 0
        n = 0
        for r in again.iter_records():
            n += 1
            gc.collect()  # what stays live while the listing runs, not the garbage it leaves
            peak = max(peak, gc.mem_alloc() - before)
        assert n == coupon_store.CAPACITY and peak < 8000, peak  # the whole list of 64 parsed: ~15 KB


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
        if raw.get("format") == "jeton-blackjack/1":  # the cards a round can use, then its decisions
            from games.blackjack_model import BlackjackModel  # (issue 26: on the cabinet later)

            m = BlackjackModel(raw)
            # every decision but the insurance's and a split's takes a card, and each hand ends once
            rec = {"n": BIG, "t": 2 ** 32 - 1, "id": m.id, "bet": BIG, "before": BIG, "after": BIG, "win": BIG,
                   "hand": False, "draws": [51] * m.cards + [57] * (m.cards + 4), "h": "f" * 32,
                   "forfeit": "x" * eventlog.TEXT, "prog": [BIG, BIG], "tour": BIG, "in": BIG}
            assert len(json.dumps(rec)) <= GAME_SIZE, (m.id, len(json.dumps(rec)), GAME_SIZE)
            raw = rec = m = None
            continue
        if raw.get("format") in CARD_TABLES:  # a card-table round: [stake, the positions dealt then the decisions]
            n, made = CARD_TABLES[raw["format"]]  # (firmware/play_cards.py): every wager staked, at the top level
            stake = {w: BIG for w in raw["wagers"]}
            rec = {"n": BIG, "t": 2 ** 32 - 1, "id": raw["id"], "bet": BIG, "before": BIG, "after": BIG, "win": BIG,
                   "hand": False, "draws": [stake, [52 * raw["decks"] - 1] * n + [1] * made], "h": "f" * 32,
                   "forfeit": "x" * eventlog.TEXT, "prog": [BIG, BIG], "tour": BIG, "in": BIG}
            assert len(json.dumps(rec)) <= GAME_SIZE, (raw["id"], len(json.dumps(rec)), GAME_SIZE)
            raw = rec = None
            continue
        if raw.get("format") in TABLE_FORMATS:  # a table round: [stake, table before, drawn] (firmware/play_table.py)
            draws = [52 * raw.get("decks", 8) - 1] * 6  # the most a round draws: baccarat's six cards
            raw = None
            # MAX_KEYS wagers placed and standing in all, each key as long as a placed one can be and
            # a standing one 3 characters more, at the most credits a wager takes
            stake = {("k%02d" % i) + "x" * (KEY_LEN - 3): MAX_CREDITS for i in range(MAX_KEYS // 2)}
            table = {"point": 10, "bets": {("s%02d" % i) + "x" * KEY_LEN: MAX_CREDITS
                                           for i in range(MAX_KEYS - MAX_KEYS // 2)}}
            rec = {"n": BIG, "t": 2 ** 32 - 1, "id": "x" * 32, "bet": BIG, "before": BIG, "after": BIG, "win": BIG,
                   "hand": False, "draws": [stake, table, draws, BIG], "h": "f" * 32, "forfeit": "x" * eventlog.TEXT,
                   "prog": [BIG, BIG], "tour": BIG, "in": BIG}
            assert len(json.dumps(rec)) <= GAME_SIZE, (name, len(json.dumps(rec)), GAME_SIZE)
            rec = stake = table = None
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


def test_the_layouts_written_out_are_the_blocks_their_constants_name():
    # the books' and the security memory's layouts are written out (a frozen image keeps them in
    # flash): the same blocks, in the same order and capacities, as their constants make them, so
    # the NVRAM map (docs/nvram.md) is the one a part written before holds
    from firmware import audit
    from firmware.game_books import RECALL
    from firmware.ledger import COUPON_SIZE, EM_SIZE, EVENT_CHUNKS, HOPPER_SIZE, NOTES_SIZE, SAS_SIZE, TOUR_SIZE

    assert CHUNK_SIZE == audit.CHUNK_BYTES == eventlog.CHUNK_BYTES
    books = [("state", STATE_SIZE)] + [("g%d" % i, GAME_SIZE) for i in range(RECALL)] + \
        [("e%d" % i, CHUNK_SIZE) for i in range(EVENT_CHUNKS)] + \
        [("hop", HOPPER_SIZE), ("em", EM_SIZE), ("cpn", COUPON_SIZE), ("sas", SAS_SIZE), ("bil", NOTES_SIZE),
         ("trn", TOUR_SIZE)]
    assert list(LAYOUT) == books
    sec = [("acct", audit.ACCOUNTS_SIZE), ("rel", audit.REL_SIZE), ("log", audit.LOG_SIZE)] + \
        [("a%d" % i, audit.CHUNK_BYTES) for i in range(audit.AUDIT_CHUNKS)]
    assert list(audit.LAYOUT) == sec
