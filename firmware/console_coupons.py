# The console's coupon commands (coupons, validation, reprint) for firmware/console.py's Console,
# imported when one is first run (a casino cabinet's heap never holds them): the records the coupon
# memory keeps until a system acknowledges them, the validation id a system sets (SAS 4C; the
# administrator here until a SAS link does it), the acknowledgement (SAS 4D; the auditor here). Each
# takes the console (say, uart, cab). Who may run each: firmware/console_access.py RIGHTS.
from firmware import coupon_system


def coupons(con, args):
    from firmware import coupon

    c = con.cab
    store = c.coupons  # never None: Console.cmd_coupons answers a cabinet without one itself
    if args and args[0] == "ack":
        ack(con, args[1:])
        return
    if args and args[0] == "json":
        # streamed a record at a time, oldest first: every record kept (CAPACITY of them at most)
        w = con.uart.write
        w(b"[")
        for i, r in enumerate(store.iter_records()):
            if i:
                w(b", ")
            con.write_json(r)
        w(b"]\r\n")
        return
    if args:
        if not args[0].isdigit() or len(args) > 1:
            raise ValueError("usage: coupons [json | N | ack N [M]]")
        r = store.coupon_record(int(args[0]))
        if r is None:
            raise ValueError("no record of coupon %s" % args[0])
        recs = [r]
    else:
        recs = store.iter_records()
    for r in recs:
        con.say("no %d %s %s %d credits %s %s%s" % (r["s"], r["n"], coupon.dollars(r["c"]), r["k"],
                                                  coupon.stamp(r["t"]), r["st"],
                                                  " (%d duplicate)" % r["d"] if r["d"] else ""))
    if args:
        return
    validation_line(con, store)
    pr = c.money_out.printer
    if pr is None:
        con.say("no coupon printer (jurisdiction %s)" % con.cab.config.JURISDICTION)
    else:
        from board.printer_epic import LOW, describe

        f = pr.flags  # as last read: the loop asks every PRINTER_IDLE_MS at most, and never waits
        con.say("printer: %s%s" % (describe(f) or "ready", ", paper low" if f & LOW else ""))


def ack(con, args):
    if len(args) not in (1, 2) or not all(a.isdigit() for a in args):
        raise ValueError("usage: coupons ack N [M] (coupons N to M, issued)")
    lo, hi = int(args[0]), int(args[-1])
    if hi < lo:
        raise ValueError("coupons ack N M: N at most M")
    done = 0
    for seq in range(lo, hi + 1):
        if lo == hi:
            coupon_system.acknowledge(con.cab, seq)  # one coupon: why not, if not
        else:
            r = con.cab.coupons.coupon_record(seq)
            if r is None or r["st"] != "issued":
                continue  # a range: those issued and not yet acknowledged
            coupon_system.acknowledge(con.cab, seq)
        done += 1
    con.say("%d acknowledged; %d awaiting the system" % (done, con.cab.coupons.waiting()))


def validation_line(con, store):
    from firmware.coupon_store import CAPACITY

    vid, seq = store.validation()
    con.say("validation id %s, sequence %d, %d records awaiting the system (room for %d)%s" % (
        vid or "none", seq, store.waiting(), CAPACITY, "; validated by the system (SAS 57/58)" if store.system() else ""))


def validation(con, args):
    c = con.cab
    if args and args[0] == "set":
        if len(args) not in (2, 3) or not all(a.isdigit() for a in args[1:]):
            raise ValueError("usage: validation set ID [SEQ] (ID 1 to 16777215, SAS 4C)")
        from firmware.coupon_number import check_vid

        check_vid(int(args[1]))  # 0 would only read them (SAS 4C): here, a mistake
        coupon_system.set_validation_id(c, int(args[1]), int(args[2]) if len(args) == 3 else 0)
    elif args and args != ["json"]:
        raise ValueError("usage: validation [json | set ID [SEQ]]")
    store = c.coupons
    if store is None:  # a casino cabinet: nothing to read (and nothing to set: set_validation_id said so)
        con.say("no coupon memory (jurisdiction %s)" % con.cab.config.JURISDICTION)
        return
    if args == ["json"]:
        from firmware.coupon_store import CAPACITY

        vid, seq = store.validation()
        t = store.ticket()  # what the system set (SAS 7B-7D)
        led = c.ledger
        con.say_json({"vid": vid, "seq": seq, "waiting": store.waiting(), "capacity": CAPACITY,
                      "stop": store.stop_reason(), "mode": "system" if store.system() else "secure",
                      "ticket": {"host": t["host"], "days": t["days"], "rdays": t["rdays"], "loc": t["loc"],
                                 "a1": t["a1"], "a2": t["a2"]},
                      "asked": led.validation_request() if led.st is not None and not c.ram_error else None})
        return
    validation_line(con, store)


def reprint(con, args):
    from firmware import coupon

    con._need_memory()
    rec = con.cab.reprint_coupon()
    con.say("coupon no %d %s %s reprinted as DUPLICATE" % (rec["s"], rec["n"], coupon.dollars(rec["c"])))
