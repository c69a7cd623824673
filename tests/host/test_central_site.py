"""The central system against real firmware (issue 27): a site of two cabinets (a vlt and a casino
machine, the firmware image on the emulated board, each on its SAS line), the site controller
polling them (central/site.py), the store on SQLite, then on PostgreSQL, and the web service
(central/web.py).

What the store holds is checked against what the cabinets say at their consoles (`meters json`,
`coupons json`, `validation json`) and against the game's model file, never against the SAS code
or the central code; coupon numbers altered or forged here get their check digits from
python-stdnum's Luhn, not from the code under test."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from stdnum import luhn

from central import cabinets, cashier
from central import site as site_module
from central.centre import Direct
from central.coupons import CLAIM_S
from central.crash import CRASH_ENV
from central.site import SiteController
from central.web import serve
from sim.harness import EmulatedCabinet
from tests.host.central_stores import ENGINES, new_store, out_of_reach, server
from tools.par import browser

ROOT = Path(__file__).resolve().parents[2]
GAME = "sept-royal-87"
MODEL = json.loads((ROOT / "games" / "models" / f"{GAME}.json").read_text())


class Rig:
    def __init__(self, tmp: Path, engine: str) -> None:
        self.tmp = tmp
        self.engine = engine
        self.cabs: dict[str, EmulatedCabinet] = {}
        for name, juris in (("vlt1", "vlt"), ("cas1", "casino")):
            (tmp / name).mkdir()
            (tmp / name / "settings.json").write_text(json.dumps({"MACHINE_ID": f"JTN-TEST-{name.upper()}"}))
            cab = EmulatedCabinet(tmp / name, extra_args=["--games", GAME], jurisdiction=juris, sas=True)
            self.cabs[name] = cab
            cab.boot(system=False)  # the vlt's validation id is the central system's to set
        self.store, self.db = new_store(engine, tmp)
        self.image = Path(self.cabs["vlt1"].firmware.command()[0]).read_bytes()  # the image both run
        self.site = self.site_controller()
        self.web = serve(self.store, 0)
        self.url = f"http://127.0.0.1:{self.web.server_address[1]}"

    def site_controller(self) -> SiteController:
        return SiteController(Direct(self.store), "site-1", {n: c.sas_path for n, c in self.cabs.items()},
                              meter_every=0.5, approved_image=self.image).start()

    def until(self, name: str, pred, timeout: float = 30.0):
        """Poll cycles of `name` until pred() is true (its value), or fail."""
        poller = self.site.pollers[name]
        for _ in range(int(timeout / poller.poll_every) + 1):
            got = pred()
            if got:
                return got
            poller.wait_cycles(1)
        raise AssertionError(f"{name}: not so after {timeout} s: {pred.__doc__ or pred}")

    def one(self, sql: str, params: tuple = ()):
        with self.store.transaction(write=False) as tx:
            return tx.one(sql, params)

    def value(self, sql: str, params: tuple = ()):
        """The first column of the first row, or None (no row yet)."""
        row = self.one(sql, params)
        return row[0] if row else None

    def all(self, sql: str, params: tuple = ()):
        with self.store.transaction(write=False) as tx:
            return tx.all(sql, params)

    def console_json(self, name: str, command: str):
        return json.loads(self.cabs[name].console.command(command)[-1])

    def close(self) -> None:
        self.web.shutdown()
        self.site.close()
        for cab in self.cabs.values():
            cab.shutdown()
            cab.close_sas()


@pytest.fixture(scope="module", params=ENGINES)
def rig(request, tmp_path_factory):
    r = Rig(tmp_path_factory.mktemp("central"), request.param)
    yield r
    r.close()


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as f:
        return json.loads(f.read())


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as f:
        return f.read()


def cash_out(rig: Rig, bills: int, bill_type: int = 1) -> dict:
    """Notes into the vlt, a cash-out, and the coupon's record at the console once printed."""
    cab = rig.cabs["vlt1"]
    before = {r["s"] for r in rig.console_json("vlt1", "coupons json")}
    for _ in range(bills):
        cab.insert_bill(bill_type)
    cab.panel.press("cashout")
    cab.panel.wait_for(lambda s: s.get("credits") == 0)

    def printed():
        return [r for r in rig.console_json("vlt1", "coupons json") if r["s"] not in before and r["st"] != "owed"]
    [rec] = rig.until("vlt1", printed)
    return rec


def test_the_vlt_gets_its_validation_id_over_4c_and_the_casino_machine_none(rig: Rig) -> None:
    vid = rig.until("vlt1", lambda: rig.value("SELECT validation_id FROM cabinets WHERE name = 'vlt1'"))
    assert rig.console_json("vlt1", "validation json")["vid"] == vid
    assert rig.all("SELECT vid, cabinet FROM validation_ids") == [(vid, "vlt1")]
    rig.until("cas1", lambda: rig.value("SELECT status FROM cabinets WHERE name = 'cas1'") == "online")
    assert rig.one("SELECT validation_id FROM cabinets WHERE name = 'cas1'") == (None,)


def test_each_machine_is_described_as_it_says_it_is(rig: Rig) -> None:
    for name in rig.cabs:
        rig.until(name, lambda: rig.value("SELECT paytable FROM cabinets WHERE name = ?", (name,)) == "SEPTRO")
        mid, max_bet = rig.one("SELECT machine_id, max_bet FROM cabinets WHERE name = ?", (name,))
        assert mid == f"JTN-TEST-{name.upper()}" and max_bet == max(MODEL["bets"])


def test_each_machine_is_verified_over_sas_21_at_connection(rig: Rig) -> None:
    for name in rig.cabs:
        detail = rig.until(name, lambda: rig.value("SELECT detail FROM events WHERE cabinet = ? AND kind = 'software'",
                                                   (name,)), timeout=120)
        assert detail.startswith("verified: SAS 21 signature"), detail
        words = detail.split()  # verified: SAS 21 signature GOT for seed SEED
        got, seed = int(words[4], 16), int(words[7], 16)
        # saspy's own CRC routine (utils/Crc.py, installed by make saspy) from the seed: LSB first
        from utils import Crc

        assert Crc.calculate(rig.image, init=seed) == list(got.to_bytes(2, "little"))


def test_meter_snapshots_equal_the_consoles_meters_and_balance(rig: Rig) -> None:
    cas, vlt = rig.cabs["cas1"], rig.cabs["vlt1"]
    for _ in range(3):
        cas.insert_token()
    for _ in range(2):
        cas.play()
    vlt.insert_bill(1)
    vlt.play()
    for name in rig.cabs:
        m = rig.console_json(name, "meters json")
        want = (m["coin_in"], m["coin_out"], m["games_played"], m["games_won"], m["credits"],
                m["acceptor_in"] + m["bill_in"], m["cashout"], m["jackpot"])

        def caught_up():
            return rig.one("SELECT coin_in, coin_out, games_played, games_won, credits, drop_in, cancelled, jackpot "
                           "FROM meter_snapshots WHERE cabinet = ? ORDER BY seq DESC LIMIT 1", (name,)) == want
        rig.until(name, caught_up)
        assert m["games_played"] >= 1
    assert rig.all("SELECT * FROM meter_flags") == []  # play, notes, tokens: every snapshot balanced


def test_a_coupon_is_recorded_once_then_read_off_the_machine(rig: Rig) -> None:
    rec = cash_out(rig, 1)
    rig.until("vlt1", lambda: rig.one("SELECT number FROM coupons WHERE number = ?", (rec["n"],)))
    row = rig.one("SELECT cabinet, cents, ticket, vid FROM coupons WHERE number = ?", (rec["n"],))
    assert row == ("vlt1", rec["c"], rec["s"] % 10000, int(rec["n"][:8]))
    rig.until("vlt1", lambda: [r for r in rig.console_json("vlt1", "coupons json") if r["n"] == rec["n"]][0]["st"]
              == "acked")  # 4D 00 after the commit: the machine marks it read
    rig.site.pollers["vlt1"].wait_cycles(3)
    assert rig.one("SELECT COUNT(*) FROM events WHERE cabinet = 'vlt1' AND kind = 'coupon' AND detail LIKE ?",
                   (f"%{rec['n']}%",)) == (1,)
    assert rig.one("SELECT COUNT(*) FROM events WHERE cabinet = 'vlt1' AND code = 61") >= (1,)  # 3D


def altered(number: str) -> list[str]:
    """One digit changed, and two adjacent unequal digits swapped (not 09/90): Luhn catches both."""
    out = [number[:5] + str((int(number[5]) + 3) % 10) + number[6:]]
    for i in range(len(number) - 1):
        a, b = number[i], number[i + 1]
        if a != b and {a, b} != {"0", "9"}:
            out.append(number[:i] + b + a + number[i + 2:])
            break
    return out


def test_the_cashier_pays_a_coupon_once_and_refuses_the_rest_with_the_reason(rig: Rig) -> None:
    rec = cash_out(rig, 2)
    rig.until("vlt1", lambda: rig.one("SELECT number FROM coupons WHERE number = ?", (rec["n"],)))
    api = rig.url + "/api/redeem"
    for bad in altered(rec["n"]):
        assert not luhn.is_valid(bad)
        a = post(api, {"number": bad, "cashier": "ann", "request": f"alt-{bad}"})
        assert a["outcome"] == "refused" and a["reason"].startswith("altered: the check digit"), a
    body = "99999999" + rec["n"][8:17]
    a = post(api, {"number": body + luhn.calc_check_digit(body), "cashier": "ann", "request": "f1"})
    assert a["outcome"] == "refused" and a["reason"] == "forged: validation id 99999999 was never given by this system"
    body = rec["n"][:8] + ("%09d" % ((int(rec["n"][8:17]) + 1) % 10**9))
    a = post(api, {"number": body + luhn.calc_check_digit(body), "cashier": "ann", "request": "f2"})
    assert a["outcome"] == "refused" and a["reason"] == "forged: no machine reported a coupon with this number"
    a = post(api, {"number": rec["n"][:17], "cashier": "ann", "request": "m1"})
    assert a["outcome"] == "refused" and a["reason"].startswith("malformed")
    a = post(api, {"number": rec["n"], "cashier": "ann", "request": "amt", "cents": rec["c"] * 10})
    assert a["outcome"] == "refused" and a["reason"].startswith("altered: the paper says")
    paid = post(api, {"number": rec["n"], "cashier": "ann", "request": "p1", "cents": rec["c"]})
    assert paid == {"outcome": "paid", "reason": f"pay ${rec['c'] // 100}.{rec['c'] % 100:02d}", "cents": rec["c"],
                    "number": rec["n"]}
    assert post(api, {"number": rec["n"], "cashier": "ann", "request": "p1"}) == paid  # the same request again
    again = post(api, {"number": rec["n"], "cashier": "bob", "request": "p2"})
    assert again["outcome"] == "refused" and again["reason"].startswith("already paid") and "by ann" in again["reason"]
    assert rig.all("SELECT request, cents FROM redemptions WHERE number = ? AND outcome = 'paid'",
                   (rec["n"],)) == [("p1", rec["c"])]
    # the cashier's page without a script: a form posted, the answer on the page
    page = urllib.request.urlopen(urllib.request.Request(
        rig.url + "/cashier", f"number={rec['n']}&cashier=cid&request=p3&dollars=".encode()), timeout=10).read()
    assert b'class="refused"' in page and b"already paid" in page


def test_a_coupon_is_claimed_within_24_hours_of_issue(rig: Rig) -> None:
    rec = cash_out(rig, 1)
    rig.until("vlt1", lambda: rig.one("SELECT number FROM coupons WHERE number = ?", (rec["n"],)))
    late = cashier.redeem(rig.store, rec["n"], "ann", "late", rec["t"] + CLAIM_S + 1)
    assert late.outcome == "refused" and late.reason.startswith("expired") and "S-13.1, r. 7, s. 14" in late.reason
    last = cashier.redeem(rig.store, rec["n"], "ann", "last", rec["t"] + CLAIM_S)  # the 24th hour's last second
    assert (last.outcome, last.cents) == ("paid", rec["c"])


def test_the_register_lists_the_coupons_of_500_dollars_or_more(rig: Rig) -> None:
    big = cash_out(rig, 5, bill_type=5)  # five $100 notes (sim/cctalk_bills.py CANADIAN)
    assert big["c"] == 50000
    rig.until("vlt1", lambda: rig.one("SELECT number FROM coupons WHERE number = ?", (big["n"],)))
    reg = json.loads(get(rig.url + "/api/register"))
    assert [r["number"] for r in reg] == [big["n"]]  # the other coupons are under $500
    assert reg[0]["machine_id"] == "JTN-TEST-VLT1" and reg[0]["cents"] == 50000 and reg[0]["paid_at"] is None
    assert big["n"].encode() in get(rig.url + "/register")


def test_the_centre_disables_and_enables_a_machine(rig: Rig) -> None:
    cab = rig.cabs["cas1"]
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    assert post(rig.url + "/api/cabinet/cas1/order", {"order": "disable", "by": "op"}) == \
        {"cabinet": "cas1", "order": "disabled"}
    cab.panel.wait_for(lambda s: s.get("state") == "tilt" and "host" in s.get("say", []))  # the machine took 01
    rig.until("cas1", lambda: [c for c in json.loads(get(rig.url + "/api/floor")) if c["name"] == "cas1"][0]
              ["order_taken"])
    assert "host: disabled by the central system" in "\n".join(cab.console.command("events"))
    page = urllib.request.urlopen(urllib.request.Request(rig.url + "/cabinet/cas1/order", b"order=enable&by=op"),
                                  timeout=10).read()
    assert b"<h1>Cabinet cas1</h1>" in page
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))  # 02 taken
    rig.until("cas1", lambda: rig.one("SELECT applied FROM cabinets WHERE name = 'cas1'") == ("enabled",))
    orders = rig.all("SELECT origin, detail FROM events WHERE cabinet = 'cas1' AND kind = 'order' ORDER BY origin, seq")
    assert orders == [("centre", "disable ordered by op"), ("centre", "enable ordered by op"),
                      ("site", "disabled (SAS 01 taken)"), ("site", "enabled (SAS 02 taken)")]
    with pytest.raises(urllib.error.HTTPError) as e:
        post(rig.url + "/api/cabinet/nosuch/order", {"order": "disable", "by": "op"})
    assert e.value.code == 404


def test_the_centre_disables_and_enables_a_machines_game_over_sas_09(rig: Rig) -> None:
    """Game 1 disabled: the vlt tilts (`sas-game`) and refuses PLAY; a new site controller (a new
    connection) sends the order in force again; enabled from the cabinet's page: it plays."""
    cab = rig.cabs["vlt1"]
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    cab.insert_bill(1)
    assert post(rig.url + "/api/cabinet/vlt1/game-order", {"order": "disable", "by": "op"}) == \
        {"cabinet": "vlt1", "game": 1, "order": "disabled"}
    s = cab.panel.wait_for(lambda s: s.get("state") == "tilt" and "sas-game" in s.get("say", []))
    assert "sas-game: game 1 disabled by the central system" in s["msg"]
    rig.until("vlt1", lambda: [c for c in json.loads(get(rig.url + "/api/floor")) if c["name"] == "vlt1"][0]
              ["game_order_taken"])
    games = rig.console_json("vlt1", "meters json")["games_played"]
    cab._press("play")  # held until the firmware's loop has seen it
    assert rig.console_json("vlt1", "meters json")["games_played"] == games
    assert cab.panel.screen["state"] == "tilt"

    def taken(what: str) -> int:
        return rig.value("SELECT COUNT(*) FROM events WHERE cabinet = 'vlt1' AND origin = 'site' AND detail = ?",
                         (f"game 1 {what} (SAS 09 taken)",))
    rig.site.close()
    rig.site = rig.site_controller()  # a new connection: the order in force sent again
    rig.until("vlt1", lambda: taken("disabled") == 2)
    page = urllib.request.urlopen(urllib.request.Request(rig.url + "/cabinet/vlt1/game-order",
                                                         b"order=enable&by=op"), timeout=10).read()
    assert b"<h1>Cabinet vlt1</h1>" in page and b"enable game 1</button>" in page
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    assert cab.play()["games"] == games + 1
    rig.until("vlt1", lambda: taken("enabled") == 1)
    assert rig.all("SELECT detail FROM events WHERE cabinet = 'vlt1' AND origin = 'centre' AND kind = 'game' "
                   "ORDER BY seq") == [("game 1 disable ordered by op",), ("game 1 enable ordered by op",)]
    with pytest.raises(urllib.error.HTTPError) as e:
        post(rig.url + "/api/cabinet/nosuch/game-order", {"order": "disable", "by": "op"})
    assert e.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as e:
        post(rig.url + "/api/cabinet/vlt1/game-order", {"order": "off", "by": "op"})
    assert e.value.code == 400


def test_a_game_order_to_a_machine_that_offers_no_game_is_said_once_and_asked_again_each_meter_period(
        tmp_path: Path) -> None:
    """A vlt whose only game is outside the vlt limits (no shipped keno model fits them:
    central/floor.py) offers none: it refuses 09 (NACK), the site says so once (SAS 51: 0 games)
    and sends 09 again every `meter_every`, not every poll cycle. Its own site and SQLite store."""
    cab = EmulatedCabinet(tmp_path / "vlt9", extra_args=["--games", "keno-classique-88"], jurisdiction="vlt", sas=True)
    cab.boot(system=False)
    store, _ = new_store("sqlite", tmp_path)
    site = SiteController(Direct(store), "site-1", {"vlt9": cab.sas_path}, meter_every=0.5)
    poller = site.pollers["vlt9"]
    sent: list[float] = []
    command = poller.host.command

    def counted(cmd: int, data: bytes = b"") -> int | None:
        if cmd == 0x09:
            sent.append(time.monotonic())
        return command(cmd, data)
    poller.host.command = counted  # type: ignore[method-assign]
    try:
        with store.transaction() as tx:
            cabinets.add(tx, "vlt9", "site-1", 0)
            assert cabinets.order(tx, "vlt9", "disable", "op", 0, target="game")
        site.start()
        assert cab.panel.screen.get("state") == "tilt" and "limits" in cab.panel.screen.get("say", [])
        for _ in range(100):
            if len(sent) >= 3:
                break
            poller.wait_cycles(1)
        assert len(sent) >= 3, sent
        gaps = [b - a for a, b in zip(sent, sent[1:])]
        assert min(gaps) >= 0.5, gaps  # each meter period, not each poll cycle (POLL_S apart)
        with store.transaction(write=False) as tx:
            said = tx.all("SELECT detail FROM events WHERE cabinet = 'vlt9' AND origin = 'site' AND kind = 'game'")
            assert tx.one("SELECT game_wanted, game_applied FROM cabinets WHERE name = 'vlt9'") == ("disabled", None)
        assert said == [("game 1 disabled refused (SAS 09): the machine offers no game (SAS 51: 0 games); "
                         "asked again every 0.5 s",)]
    finally:
        site.close()
        store.close()
        cab.shutdown()
        cab.close_sas()


def test_a_cabinet_that_stops_answering_is_marked_and_comes_back_with_its_validation_id(rig: Rig) -> None:
    vid = rig.one("SELECT validation_id FROM cabinets WHERE name = 'vlt1'")[0]
    rig.cabs["vlt1"].power_cut()
    rig.until("vlt1", lambda: rig.one("SELECT status FROM cabinets WHERE name = 'vlt1'")[0] == "silent")
    assert rig.one("SELECT COUNT(*) FROM events WHERE cabinet = 'vlt1' AND detail LIKE 'not answering%'") == (1,)
    assert json.loads(get(rig.url + "/api/floor"))[1]["status"] == "silent"  # cas1, vlt1 by name
    since = rig.value("SELECT status_since FROM cabinets WHERE name = 'vlt1'")
    assert json.loads(get(rig.url + "/api/degraded")) == [
        {"what": "silent", "name": "vlt1", "since": since, "detail": "not answering its SAS polls"}]
    assert b'<li data-what="silent">silent vlt1 since ' in get(rig.url + "/")
    rig.cabs["vlt1"].boot(system=False)
    rig.until("vlt1", lambda: rig.one("SELECT status FROM cabinets WHERE name = 'vlt1'")[0] == "online")
    assert json.loads(get(rig.url + "/api/degraded")) == []
    assert rig.console_json("vlt1", "validation json")["vid"] == vid  # its coupon memory kept it
    assert rig.all("SELECT vid FROM validation_ids") == [(vid,)]  # no new id given


def test_the_store_out_of_reach_is_said_on_the_page_and_the_cabinets_are_polled_on(rig: Rig) -> None:
    """PostgreSQL stopped under the site controller (its link straight to the store) and the page:
    the page says the store's last write failed, since when; the machines are polled on (no link
    tilt, the pollers alive); the server started again, the snapshots go on and the page is clear.
    (A server process is what can be stopped: SQLite is a file in this process.)"""
    if rig.engine != "postgresql":
        pytest.skip("the store out of reach: PostgreSQL's server stopped")
    pg = server()
    stopped_at = int(time.time())
    pg.stop()
    try:
        [said] = rig.until("cas1", lambda: [d for d in json.loads(get(rig.url + "/api/degraded"))
                                            if d["what"] == "store" and d["detail"].startswith("the last write")])
        assert said["name"] == "postgresql" and stopped_at <= said["since"] <= int(time.time())
        assert said["detail"].startswith("the last write failed: OperationalError"), said
        with pytest.raises(urllib.error.HTTPError) as e:  # the floor's own read fails: 503, saying why
            get(rig.url + "/api/floor")
        assert e.value.code == 503  # the detail is the latest error's: since when is the first's
        assert [(d["what"], d["since"]) for d in json.loads(e.value.read())["degraded"]
                if d["what"] != "waiting"] == [("store", said["since"])]
        assert b'<li data-what="store">store postgresql since ' in get(rig.url + "/")
        for url, body in (("/api/redeem", {"number": "0" * 18, "cashier": "c", "request": "r1"}),
                          ("/api/cabinet/vlt1/order", {"order": "disable", "by": "op"}),
                          ("/api/relay/site1/set-aside", {"message": 1, "by": "op"})):
            with pytest.raises(urllib.error.HTTPError) as e:  # an operator's POST: 503 too, not a dropped connection
                post(rig.url + url, body)
            assert e.value.code == 503 and "nothing was done" in json.loads(e.value.read())["error"], url
        # what the site controller (this process) could not send is held, said on its page
        [held] = rig.until("cas1", lambda: [d for d in json.loads(get(rig.url + "/api/degraded"))
                                            if d["what"] == "waiting" and d["name"] == "cas1"])
        assert "messages held, sent once it answers; the machine polled on" in held["detail"], held
        for name in rig.cabs:
            rig.site.pollers[name].wait_cycles(3)  # alive: a poller that died on the store's error would not cycle
            assert rig.cabs[name].panel.screen.get("link") == "up"
            assert rig.site.pollers[name].status == "online"
    finally:
        pg.start()
    rig.store.close()  # this thread's connection, cut by the stop (the pollers' are made again as they fail)
    seq = rig.site.pollers["cas1"].seq["snapshot"]
    rig.until("cas1", lambda: (rig.value("SELECT MAX(seq) FROM meter_snapshots WHERE cabinet = 'cas1'") or 0) > seq)
    for name in rig.cabs:
        rig.until(name, lambda: not rig.site.pollers[name].held)
    assert json.loads(get(rig.url + "/api/degraded")) == []
    seqs = [s for (s,) in rig.all("SELECT seq FROM meter_snapshots WHERE cabinet = 'cas1' ORDER BY seq")]
    assert seqs == list(range(1, len(seqs) + 1))  # what was held while it was out of reach stored, in order


def test_a_cabinets_history_and_the_cashier_in_chromium(rig: Rig) -> None:
    if browser.find() is None:  # make test installs it (browser-tools)
        pytest.fail("no headless Chromium: run `make browser-tools`")
    # the floor's page: tests/host/test_central_floor.py
    dom = browser._run(["--dump-dom", rig.url + "/cabinet/vlt1"])
    assert "<h1>Cabinet vlt1</h1>" in dom and "went backwards" not in dom
    assert dom.count("<tr>") > 5  # snapshots, events, coupons
    dom = browser._run(["--dump-dom", rig.url + "/cashier"])
    assert '<form method="post" action="/cashier">' in dom


def test_meters_gone_back_by_a_ram_clear_are_flagged(rig: Rig) -> None:
    """The casino machine's RAM clear (audit key, nothing owed: docs/firmware.md) puts its meters
    back to zero: each meter the console showed above zero before it is flagged as gone backwards."""
    cab, con = rig.cabs["cas1"], rig.cabs["cas1"].console
    cab.panel.set_pin("key_audit", 1)
    cab.panel.wait_for(lambda s: s.get("state") in ("audit", "service"))
    if cab.panel.screen.get("credits"):
        cab.cash_out()  # by hand (the audit key is on), the attendant's key pays it
    cab.panel.wait_for(lambda s: s.get("state") == "service")
    for _ in range(200):  # the hand pay's meter strokes first (tests/host/test_e2e_access.py)
        if not json.loads(con.command("hardmeters json")[0])["busy"]:
            break
        threading.Event().wait(0.05)
    m = rig.console_json("cas1", "meters json")
    ours = {"coin_in": m["coin_in"], "coin_out": m["coin_out"], "jackpot": m["jackpot"], "cancelled": m["cashout"],
            "drop_in": m["acceptor_in"] + m["bill_in"], "games_played": m["games_played"],
            "games_won": m["games_won"], "doors": m["door_main"], "power_resets": m["power_resets"]}
    rig.until("cas1", lambda: rig.one("SELECT coin_in, cancelled FROM meter_snapshots WHERE cabinet = 'cas1' "
                                      "ORDER BY seq DESC LIMIT 1") == (ours["coin_in"], ours["cancelled"]))
    seq = rig.value("SELECT MAX(seq) FROM meter_snapshots WHERE cabinet = 'cas1'")
    assert con.command("ramclear") == ["critical memory cleared; meters start at zero"]
    cab.panel.set_pin("key_audit", 0)
    rig.until("cas1", lambda: rig.value("SELECT COUNT(*) FROM meter_flags WHERE cabinet = 'cas1' AND seq > ?", (seq,)))
    flags = rig.all("SELECT meter, before_value, why FROM meter_flags WHERE cabinet = 'cas1' AND seq > ?", (seq,))
    assert sorted(f[0] for f in flags) == sorted(k for k, v in ours.items() if v > 0)
    assert all(why == "went backwards" and ours[meter] == before for meter, before, why in flags)


@pytest.mark.parametrize("step", ["coupon-looked", "coupon-recorded"])
def test_a_site_controller_killed_while_reading_a_coupon_loses_none_and_records_it_once(rig: Rig, step: str) -> None:
    """The in-process controller stops; a controller process (python -m central.site) killed at the
    step, then started again, on the same store and line."""
    if not rig.site.stop.is_set():
        rig.site.close()
    cab = rig.cabs["vlt1"]
    keep = threading.Event()
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{CRASH_ENV: step})
    cmd = [sys.executable, "-m", "central.site", "--db", rig.db, f"vlt1={cab.sas_path}"]
    site = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    before = {r["s"] for r in rig.console_json("vlt1", "coupons json")}
    cab.insert_bill(1)
    cab.panel.press("cashout")
    cab.panel.wait_for(lambda s: s.get("credits") == 0)
    assert site.wait(30) == -signal.SIGKILL  # it died at the step, on this coupon
    [rec] = [r for r in rig.console_json("vlt1", "coupons json") if r["s"] not in before]
    assert rec["st"] == "issued"  # not read off the machine: its record stays unread there
    recorded = rig.one("SELECT COUNT(*) FROM coupons WHERE number = ?", (rec["n"],))[0]
    assert recorded == (1 if step == "coupon-recorded" else 0)
    env.pop(CRASH_ENV)
    site = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(100):
            if [r for r in rig.console_json("vlt1", "coupons json") if r["n"] == rec["n"]][0]["st"] == "acked":
                break
            keep.wait(0.2)
        else:
            raise AssertionError("the restarted controller did not read the coupon off the machine")
    finally:
        site.send_signal(signal.SIGTERM)
        site.wait(30)
    assert rig.one("SELECT cents FROM coupons WHERE number = ?", (rec["n"],)) == (rec["c"],)
    assert rig.one("SELECT COUNT(*) FROM events WHERE detail LIKE ?", (f"coupon {rec['n']}%",)) == (1,)  # read once


def test_a_machine_not_running_the_approved_software_is_disabled(rig: Rig) -> None:
    """A controller whose approved image differs from the machine's by one byte (the machine's
    software changed, as far as the centre can tell): 21's answer does not match, the machine is
    disabled (01) and kept so by the centre."""
    if not rig.site.stop.is_set():
        rig.site.close()
    other = bytearray(rig.image)
    other[len(other) // 2] ^= 1
    site = SiteController(Direct(rig.store), "site-1", {"cas1": rig.cabs["cas1"].sas_path}, meter_every=0.5,
                          approved_image=bytes(other)).start()
    try:
        poller = site.pollers["cas1"]
        detail = None
        for _ in range(600):
            detail = rig.value("SELECT detail FROM events WHERE cabinet = 'cas1' AND kind = 'software' "
                               "AND detail LIKE '%not the approved%'")
            if detail:
                break
            poller.wait_cycles(1)
        assert detail and "not the approved software, disabled" in detail
        rig.cabs["cas1"].panel.wait_for(lambda s: s.get("state") == "tilt" and "host" in s.get("say", []))
        assert rig.value("SELECT wanted FROM cabinets WHERE name = 'cas1'") == "disabled"
    finally:
        site.close()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_site_started_with_the_store_out_of_reach_polls_on_and_numbers_nothing_twice(
        tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A site controller stops; a new one starts while the store is out of reach (it cannot ask
    the centre's last sequences): it polls its vlt on (no link tilt), the machine is played and
    cashes out meanwhile, its exceptions and meters are held and its coupon stays unread on the
    machine, and the page of its own process says `waiting`; past `HOLD_MAX` messages (made small
    here) the oldest snapshots and descriptions are let go, never numbered. The store back, the held messages
    are numbered after the centre's last sequences: every sequence stored once, none lost, none
    over an earlier one; the coupon recorded once, then read off the machine. Its own cabinet
    and store, on each engine."""
    (tmp_path / "vlt5").mkdir()
    cab = EmulatedCabinet(tmp_path / "vlt5", extra_args=["--games", GAME], jurisdiction="vlt", sas=True)
    cab.boot(system=False)
    store, url = new_store(engine, tmp_path)
    web = serve(store, 0)
    page = f"http://127.0.0.1:{web.server_address[1]}/api/degraded"
    first: SiteController | None = None
    site: SiteController | None = None

    def one(sql: str, params: tuple = ()):
        with store.transaction(write=False) as tx:
            return tx.one(sql, params)

    def waiting() -> list[dict]:
        return [d for d in json.loads(get(page)) if d["what"] == "waiting"]

    def until(poller, pred, timeout: float = 30.0):
        for _ in range(int(timeout / poller.poll_every) + 1):
            got = pred()
            if got:
                return got
            poller.wait_cycles(1)
        raise AssertionError(f"not so after {timeout} s")

    monkeypatch.setattr(site_module, "HOLD_MAX", 20)
    try:
        first = SiteController(Direct(store), "site-1", {"vlt5": cab.sas_path}, meter_every=0.5).start()
        until(first.pollers["vlt5"], lambda: (one("SELECT validation_id FROM cabinets WHERE name = 'vlt5'") or [None])[0]
              and one("SELECT COUNT(*) FROM meter_snapshots WHERE cabinet = 'vlt5'")[0] >= 2)
        first.close()
        with store.transaction(write=False) as tx:
            before = tx.all("SELECT seq, detail FROM events WHERE cabinet = 'vlt5' AND origin = 'site' ORDER BY seq")
            snaps_before = tx.all("SELECT seq, at FROM meter_snapshots WHERE cabinet = 'vlt5' ORDER BY seq")
        e0, s0 = before[-1][0], snaps_before[-1][0]
        with out_of_reach(engine, store, url):
            site = SiteController(Direct(store), "site-1", {"vlt5": cab.sas_path}, meter_every=0.5).start()
            poller = site.pollers["vlt5"]
            [row] = until(poller, waiting)
            assert row["name"] == "vlt5" and "to be numbered after the centre's last sequences" in row["detail"], row
            coupons = {r["s"] for r in json.loads(cab.console.command("coupons json")[-1])}
            cab.insert_bill(1)
            cab.play()
            cab.panel.press("cashout")
            cab.panel.wait_for(lambda s: s.get("credits") == 0)
            m = json.loads(cab.console.command("meters json")[-1])
            played = m["games_played"]
            # read and held, the coupon unread on the machine meanwhile (a snapshot of after the cash-out)
            until(poller, lambda: [h for h in list(poller.held) if h["kind"] == "snapshot"
                                   and (h["meters"]["games_played"], h["meters"]["cancelled"]) == (played, m["cashout"])])
            until(poller, lambda: poller.dropped)  # past HOLD_MAX: the oldest snapshots let go, events kept
            poller.wait_cycles(1)  # the cycle that let one go has said so
            assert "older snapshots and descriptions let go (HOLD_MAX)" in waiting()[0]["detail"]
            assert [h["kind"] for h in list(poller.held)].count("snapshot") >= 1  # the newest kept
            [rec] = until(poller, lambda: [r for r in json.loads(cab.console.command("coupons json")[-1])
                                           if r["s"] not in coupons and r["st"] != "owed"])  # printed
            assert rec["st"] == "issued"  # not read off the machine: nothing at the centre has it
            assert cab.panel.screen.get("link") == "up" and poller.status == "online"  # polled on: no link tilt
            assert poller.seq is None and not [h for h in list(poller.held) if "seq" in h]  # nothing numbered yet
            held_at = int(time.time())
        until(poller, lambda: [r for r in json.loads(cab.console.command("coupons json")[-1])
                               if r["n"] == rec["n"]][0]["st"] == "acked")
        until(poller, lambda: not poller.held)
        assert waiting() == []
        with store.transaction(write=False) as tx:
            events = tx.all("SELECT seq, at, kind, detail FROM events WHERE cabinet = 'vlt5' AND origin = 'site' "
                            "ORDER BY seq")
            snaps = tx.all("SELECT seq, at, games_played FROM meter_snapshots WHERE cabinet = 'vlt5' ORDER BY seq")
            assert tx.one("SELECT cents FROM coupons WHERE number = ?", (rec["n"],)) == (rec["c"],)
        assert [e[0] for e in events] == list(range(1, len(events) + 1))  # none lost, none twice
        assert [(e[0], e[3]) for e in events[:e0]] == before  # nothing numbered over the first controller's
        assert events[e0][2:] == ("link", "answering (new before)")  # the new controller's first, after them
        assert [e for e in events[e0:] if e[2] == "exception" and e[1] <= held_at]  # held while out of reach
        assert [e[3] for e in events if e[2] == "coupon"].count(f"coupon {rec['n']} {rec['c']} cents read") == 1
        assert [s[0] for s in snaps] == list(range(1, len(snaps) + 1))
        assert [(s[0], s[1]) for s in snaps[:s0]] == snaps_before
        # the newest snapshot held (never let go) stored after the first controller's: taken before the
        # store came back (a second after held_at at most: one taken as the block ends)
        assert [s for s in snaps[s0:] if s[1] <= held_at + 1 and s[2] == played]
        assert snaps[-1][2] == json.loads(cab.console.command("meters json")[-1])["games_played"]
    finally:
        web.shutdown()
        for s in (first, site):
            if s is not None and not s.stop.is_set():
                s.close()
        store.close()
        cab.shutdown()
        cab.close_sas()
