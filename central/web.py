"""The central system's web page and API (the standard library's http.server): the floor live, one
cabinet's history, the cashier, the register of coupons of $500 or more.

    GET  /                 the floor (a script refreshes it from /api/floor every second)
    GET  /cabinet/NAME     a cabinet's history: snapshots, flags, events, coupons
    GET  /cashier          the cashier's form; POST /cashier (a form) or /api/redeem (JSON) redeems
    POST /cabinet/NAME/order (a form) or /api/cabinet/NAME/order (JSON {"order", "by"}): enable or
                           disable the machine (SAS 02/01, sent by the site controller until taken)
    POST /cabinet/NAME/game-order, /api/cabinet/NAME/game-order: the same for its game 1 (SAS 09)
    GET  /register         coupons of $500 or more
    GET  /api/floor, /api/cabinet/NAME, /api/register   the same as JSON
    GET  /api/degraded     what is degraded, since when (central/degraded.py): on the floor page too
    POST /api/relay/SITE/set-aside {"message": N, "by"}: set aside the message the relay is stopped
                           on (central/degraded.py set_aside); GET /api/set-aside: those set aside

A redemption asks for the cashier's name and a request id the form makes once per coupon shown
(`central/cashier.py`: the same request again gets the same answer and pays nothing more)."""
from __future__ import annotations

import datetime
import html
import json
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from central import cabinets, cashier, coupons, degraded
from central.meters import COLUMNS
from central.store import Store, cabinet

HISTORY = 50  # rows of each kind a cabinet's page shows
STYLE = ("body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #999;"
         "padding:2px 6px;text-align:right}th{background:#eee}.silent{background:#fcc}.online{background:#cfc}"
         ".flag{color:#a00}.refused{color:#a00}.paid{color:#060}#degraded li{color:#a00}")


def floor(store: Store) -> list[dict]:
    with store.transaction(write=False) as tx:
        rows = tx.all("SELECT name, site, machine_id, paytable, status, status_since, last_answer, validation_id, "
                      "wanted, applied, game_wanted, game_applied FROM cabinets ORDER BY name")
        out = []
        for name, site, mid, paytable, status, since, last, vid, wanted, applied, gwanted, gapplied in rows:
            snap = tx.one(f"SELECT seq, at, {', '.join(COLUMNS)} FROM meter_snapshots WHERE cabinet = ? "
                          "ORDER BY seq DESC LIMIT 1", (name,))
            flags = tx.one("SELECT COUNT(*) FROM meter_flags WHERE cabinet = ?", (name,))
            out.append({"name": name, "site": site, "machine_id": mid, "paytable": paytable, "status": status,
                        "status_since": since, "last_answer": last, "validation_id": vid,
                        "order": wanted, "order_taken": wanted is not None and wanted == applied,
                        "game_order": gwanted, "game_order_taken": gwanted is not None and gwanted == gapplied,
                        "meters": dict(zip(("seq", "at") + COLUMNS, snap)) if snap else None,
                        "flags": flags[0] if flags else 0})
    return out


def history(store: Store, name: str) -> dict | None:
    with store.transaction(write=False) as tx:
        if tx.one("SELECT name FROM cabinets WHERE name = ?", (name,)) is None:
            return None
        snaps = tx.all(f"SELECT seq, at, {', '.join(COLUMNS)} FROM meter_snapshots WHERE cabinet = ? "
                       "ORDER BY seq DESC LIMIT ?", (name, HISTORY))
        flags = tx.all("SELECT seq, meter, before_value, after_value, why FROM meter_flags WHERE cabinet = ? "
                       "ORDER BY seq DESC LIMIT ?", (name, HISTORY))
        events = tx.all("SELECT origin, seq, at, kind, code, detail FROM events WHERE cabinet = ? "
                        "ORDER BY at DESC, origin, seq DESC LIMIT ?", (name, HISTORY))
        cps = tx.all("SELECT number, cents, issued_at, paid_at, paid_by FROM coupons WHERE cabinet = ? "
                     "ORDER BY issued_at DESC LIMIT ?", (name, HISTORY))
    return {"name": name,
            "snapshots": [dict(zip(("seq", "at") + COLUMNS, r)) for r in snaps],
            "flags": [dict(zip(("seq", "meter", "before", "after", "why"), r)) for r in flags],
            "events": [dict(zip(("origin", "seq", "at", "kind", "code", "detail"), r)) for r in events],
            "coupons": [dict(zip(("number", "cents", "issued_at", "paid_at", "paid_by"), r)) for r in cps]}


def _when(t: int | None) -> str:
    return cashier.local(t) if t else ""


def _table(head: list[str], rows: list[list[Any]], row_class: Callable[[int], str] | None = None) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    body = []
    for i, r in enumerate(rows):
        cls = f' class="{row_class(i)}"' if row_class else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>")
    return f"<table><tr>{h}</tr>{''.join(body)}</table>"


def _page(title: str, body: str, script: str = "") -> bytes:
    nav = '<p><a href="/">floor</a> · <a href="/cashier">cashier</a> · <a href="/register">register</a></p>'
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>{nav}<h1>{html.escape(title)}</h1>{body}{script}</body></html>"
            ).encode()


FLOOR_HEAD = ["cabinet", "machine", "game", "status", "since", "credits", "coin in", "coin out", "drop",
              "games", "flags", "validation id"]


def floor_rows(fl: list[dict]) -> list[list[Any]]:
    rows = []
    for c in fl:
        m = c["meters"] or {}
        rows.append([c["name"], c["machine_id"] or "", c["paytable"] or "", c["status"], _when(c["status_since"]),
                     m.get("credits", ""), m.get("coin_in", ""), m.get("coin_out", ""), m.get("drop_in", ""),
                     m.get("games_played", ""), c["flags"], c["validation_id"] or ""])
    return rows


def degraded_items(items: list[dict]) -> str:
    """The floor page's list of what is degraded (the same text as the script's)."""
    return "".join(f'<li data-what="{html.escape(d["what"])}">{html.escape(d["what"])} {html.escape(d["name"])} '
                   f'since {html.escape(_iso(d["since"]))}: {html.escape(d["detail"])}</li>' for d in items)


def _iso(t: int) -> str:
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


# The floor's live refresh: rebuilds the table's rows from /api/floor (the same columns as floor_rows)
# and the list of what is degraded from /api/degraded (as degraded_items).
FLOOR_SCRIPT = """<script>
function cell(v){const td=document.createElement('td');td.textContent=(v===null||v===undefined)?'':v;return td;}
async function degraded(){
  const ul=document.getElementById('degraded');
  const ds=await (await fetch('/api/degraded')).json();
  ul.replaceChildren(...ds.map(d=>{const li=document.createElement('li');li.dataset.what=d.what;
    li.textContent=d.what+' '+d.name+' since '+new Date(d.since*1000).toISOString()+': '+d.detail;return li;}));
}
async function refresh(){
  try{await degraded();}catch(e){document.getElementById('degraded').textContent='not updated: '+e;}
  try{
    const fl=await (await fetch('/api/floor')).json();
    const t=document.getElementById('floor');
    while(t.rows.length>1)t.deleteRow(1);
    for(const c of fl){
      const m=c.meters||{};const tr=t.insertRow();tr.className=c.status;tr.dataset.cabinet=c.name;
      const a=document.createElement('td');const l=document.createElement('a');l.href='/cabinet/'+c.name;
      l.textContent=c.name;a.appendChild(l);tr.appendChild(a);
      for(const v of [c.machine_id,c.paytable,c.status,c.status_since?new Date(c.status_since*1000).toISOString():'',
        m.credits,m.coin_in,m.coin_out,m.drop_in,m.games_played,c.flags,c.validation_id])tr.appendChild(cell(v));
    }
    document.getElementById('updated').textContent='updated '+new Date().toISOString();
  }catch(e){document.getElementById('updated').textContent='not updated: '+e;}
}
refresh();setInterval(refresh,1000);
</script>"""


def floor_page(store: Store, now: float) -> bytes:
    items = f'<h2>Degraded</h2><ul id="degraded">{degraded_items(degraded.collect(store, now))}</ul>'
    try:
        fl = floor(store)
    except store.UNREACHABLE:  # said in the list above
        fl = []
    table = _table(FLOOR_HEAD, floor_rows(fl), lambda i: fl[i]["status"]).replace("<table>", '<table id="floor">', 1)
    return _page("Floor", items + table + '<p id="updated"></p>', FLOOR_SCRIPT)


def cabinet_page(h: dict) -> bytes:
    snaps = _table(["seq", "at"] + list(COLUMNS),
                   [[s["seq"], _when(s["at"])] + [s[c] for c in COLUMNS] for s in h["snapshots"]])
    flags = _table(["seq", "meter", "before", "after", "why"],
                   [[f["seq"], f["meter"], f["before"], f["after"], f["why"]] for f in h["flags"]])
    events = _table(["from", "seq", "at", "kind", "detail"],
                    [[e["origin"], e["seq"], _when(e["at"]), e["kind"], e["detail"]] for e in h["events"]])
    cps = _table(["number", "amount", "issued", "paid", "by"],
                 [[c["number"], cashier.dollars(c["cents"]), _when(c["issued_at"]), _when(c["paid_at"]),
                   c["paid_by"] or ""] for c in h["coupons"]])
    name = html.escape(h["name"])
    order = (f'<form method="post" action="/cabinet/{name}/order">'
             '<label>operator <input name="by" size="8"></label> '
             '<button name="order" value="disable">disable</button> '
             '<button name="order" value="enable">enable</button></form>'
             f'<form method="post" action="/cabinet/{name}/game-order">'
             '<label>operator <input name="by" size="8"></label> '
             f'<button name="order" value="disable">disable game {cabinets.GAME}</button> '
             f'<button name="order" value="enable">enable game {cabinets.GAME}</button></form>')
    body = (f'{order}<h2>Meter snapshots</h2><div id="snapshots">{snaps}</div><h2 class="flag">Flags</h2>'
            f'<div id="flags">{flags}</div><h2>Events</h2><div id="events">{events}</div>'
            f'<h2>Coupons</h2><div id="coupons">{cps}</div>')
    return _page(f"Cabinet {h['name']}", body)


def cashier_page(answer: cashier.Answer | None = None, name: str = "") -> bytes:
    said = ""
    if answer:
        said = (f'<p id="answer" class="{answer.outcome}">{html.escape(answer.number)}: '
                f"<b>{html.escape(answer.outcome)}</b> — {html.escape(answer.reason)}</p>")
    form = (f'<form method="post" action="/cashier"><input type="hidden" name="request" value="{uuid.uuid4()}">'
            '<label>control number <input name="number" size="22" autofocus></label> '
            '<label>amount on the paper (optional, $) <input name="dollars" size="8"></label> '
            f'<label>cashier <input name="cashier" size="8" value="{html.escape(name)}"></label> '
            '<button type="submit">redeem</button></form>')
    return _page("Cashier", said + form)


def register_page(rows: list[dict]) -> bytes:
    t = _table(["number", "machine", "cabinet", "amount", "issued", "paid", "by"],
               [[r["number"], r["machine_id"] or "", r["cabinet"], cashier.dollars(r["cents"]), _when(r["issued_at"]),
                 _when(r["paid_at"]), r["paid_by"] or ""] for r in rows])
    return _page(f"Register of coupons of {cashier.dollars(coupons.REGISTER_CENTS)} or more", t)


def _cents(dollars: str) -> int | None:
    dollars = dollars.strip().lstrip("$").replace(",", "")
    if not dollars:
        return None
    whole, _, frac = dollars.partition(".")
    if not whole.isdigit() or not (frac == "" or (frac.isdigit() and len(frac) <= 2)):
        raise ValueError(f"not an amount in dollars: {dollars!r}")
    return int(whole) * 100 + int((frac + "00")[:2])


class Handler(BaseHTTPRequestHandler):
    store: Store
    clock: Callable[[], float] = time.time

    def log_message(self, format: str, *args: Any) -> None:  # the floor's terminal stays readable
        pass

    def _send(self, body: bytes, status: int = 200, kind: str = "text/html; charset=utf-8") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, value: Any, status: int = 200) -> None:
        self._send(json.dumps(value).encode(), status, "application/json")

    def do_GET(self) -> None:
        try:
            self._get()
        except self.store.UNREACHABLE as e:  # the store out of reach: said, not a broken connection
            self._unreachable(e, "")

    def _get(self) -> None:
        path = urllib.parse.urlparse(self.path).path
        name = urllib.parse.unquote(path.split("/", 3)[-1])
        if path == "/":
            self._send(floor_page(self.store, self.clock()))
        elif path == "/api/degraded":
            self._json(degraded.collect(self.store, self.clock()))
        elif path == "/api/set-aside":
            with self.store.transaction(write=False) as tx:
                self._json(degraded.unapplied(tx))
        elif path == "/api/floor":
            self._json(floor(self.store))
        elif path.startswith("/cabinet/") or path.startswith("/api/cabinet/"):
            h = history(self.store, name)
            if h is None:
                self._send(_page("Not found", f"<p>no cabinet {html.escape(name)}</p>"), 404)
            elif path.startswith("/api/"):
                self._json(h)
            else:
                self._send(cabinet_page(h))
        elif path == "/cashier":
            self._send(cashier_page())
        elif path in ("/register", "/api/register"):
            with self.store.transaction(write=False) as tx:
                rows = coupons.register(tx)
            self._json(rows) if path.startswith("/api/") else self._send(register_page(rows))
        else:
            self._send(_page("Not found", ""), 404)

    def _body(self) -> bytes:
        n = int(self.headers.get("Content-Length") or 0)
        if n > 4096:
            raise ValueError("request too long")
        return self.rfile.read(n)

    def do_POST(self) -> None:
        try:
            self._post()
        except self.store.UNREACHABLE as e:  # as do_GET: nothing was done, and the answer says why
            self._unreachable(e, "; nothing was done")

    def _unreachable(self, e: BaseException, more: str) -> None:
        self._json({"error": f"the store does not answer: {type(e).__name__}{more}",
                    "degraded": degraded.collect(self.store, self.clock())}, 503)

    def _post(self) -> None:
        path = urllib.parse.urlparse(self.path).path
        if path.endswith("/order") or path.endswith("/game-order"):
            return self._order(path)
        if path.startswith("/api/relay/") and path.endswith("/set-aside") and path.count("/") == 4:
            return self._set_aside(urllib.parse.unquote(path.split("/")[3]))
        try:
            if path == "/api/redeem":
                q = json.loads(self._body() or b"{}")
                number, who, request = str(q["number"]), str(q["cashier"]), str(q["request"])
                claimed = q.get("cents")
                if claimed is not None and (not isinstance(claimed, int) or claimed < 0):
                    raise ValueError("cents: a whole number of cents")
            elif path == "/cashier":
                f = urllib.parse.parse_qs(self._body().decode(), keep_blank_values=True)
                number, who, request = f["number"][0], f["cashier"][0], f["request"][0]
                claimed = _cents(f.get("dollars", [""])[0])
            else:
                return self._send(_page("Not found", ""), 404)
            if not who.strip() or not request.strip():
                raise ValueError("a cashier's name and a request id are needed")
        except (KeyError, ValueError, json.JSONDecodeError, UnicodeDecodeError) as e:
            msg = f"bad request: {e}"
            return self._json({"error": msg}, 400) if path.startswith("/api/") else \
                self._send(_page("Cashier", f'<p id="answer" class="refused">{html.escape(msg)}</p>'), 400)
        a = cashier.redeem(self.store, number, who, request, int(self.clock()), claimed)
        if path.startswith("/api/"):
            self._json({"outcome": a.outcome, "reason": a.reason, "cents": a.cents, "number": a.number})
        else:
            self._send(cashier_page(a, who))


    def _set_aside(self, site: str) -> None:
        """{"message": N, "by": NAME}: 400 malformed, 404 no such site or message, 409 not the one
        the relay is stopped on; the record set aside."""
        try:
            q = json.loads(self._body() or b"{}")
            seq, by = q["message"], q["by"]
            if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(by, str) or not by.strip():
                raise ValueError('{"message": the number the relay\'s row gives, "by": the operator\'s name}')
        except (KeyError, TypeError, ValueError, json.JSONDecodeError, UnicodeDecodeError) as e:
            return self._json({"error": f"bad request: {e}"}, 400)
        try:
            with self.store.transaction(keys=[degraded.relay_key(site)]) as tx:
                done = degraded.set_aside(tx, site, seq, by, int(self.clock()))
        except degraded.NotFound as e:
            return self._json({"error": str(e)}, 404)
        except degraded.NotBlocking as e:
            return self._json({"error": str(e)}, 409)
        self._json(done)

    def _order(self, path: str) -> None:
        api = path.startswith("/api/")
        target = "game" if path.endswith("/game-order") else "machine"
        name = urllib.parse.unquote(path.split("/")[-2])
        try:
            if api:
                q = json.loads(self._body() or b"{}")
                what, by = str(q["order"]), str(q["by"])
            else:
                f = urllib.parse.parse_qs(self._body().decode(), keep_blank_values=True)
                what, by = f["order"][0], f["by"][0]
            if not by.strip():
                raise ValueError("the operator's name is needed")
            with self.store.transaction(keys=[cabinet(name)]) as tx:
                found = cabinets.order(tx, name, what, by, int(self.clock()), target)
        except (KeyError, ValueError, json.JSONDecodeError, UnicodeDecodeError) as e:
            return self._json({"error": f"bad request: {e}"}, 400) if api else \
                self._send(_page("Order", f"<p>bad request: {html.escape(str(e))}</p>"), 400)
        if not found:
            return self._json({"error": f"no cabinet {name}"}, 404) if api else self._send(_page("Not found", ""), 404)
        if api:
            self._json({"cabinet": name, "order": cabinets.ORDERS[what]} if target == "machine" else
                       {"cabinet": name, "game": cabinets.GAME, "order": cabinets.ORDERS[what]})
        else:
            h = history(self.store, name)
            assert h is not None
            self._send(cabinet_page(h))


def serve(store: Store, port: int, host: str = "127.0.0.1",
          clock: Callable[[], float] = time.time) -> ThreadingHTTPServer:
    """Start the server in a thread; its port is server.server_address[1] (0 picks a free one)."""
    handler = type("CentralHandler", (Handler,), {"store": store, "clock": staticmethod(clock)})
    server = ThreadingHTTPServer((host, port), handler)
    threading.Thread(target=server.serve_forever, name="central-web", daemon=True).start()
    return server
