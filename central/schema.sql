-- The central system's schema (docs/central.md), written once in SQL that SQLite (3.24 or later) and
-- PostgreSQL both accept: integer and text columns only, times in whole seconds since the epoch (UTC),
-- money in cents, no engine-specific types or defaults. `central/store.py` runs it statement by
-- statement (statements are separated by a line holding only ";").

-- A cabinet the site controller polls, by the name the site gives it (its SAS line).
CREATE TABLE IF NOT EXISTS cabinets (
    name TEXT PRIMARY KEY,
    site TEXT NOT NULL,
    machine_id TEXT,               -- SAS 54: the machine's serial
    paytable TEXT,                 -- SAS 1F: the paytable (model) id
    max_bet INTEGER,               -- SAS 1F: the largest bet, credits
    denom_code INTEGER,            -- SAS 1F: denomination (SAS Table C-4)
    validation_id INTEGER,         -- the id this system set with SAS 4C (NULL: none yet)
    status TEXT NOT NULL,          -- new, online, silent (as the site saw it)
    status_since BIGINT NOT NULL,
    last_answer BIGINT,            -- the last snapshot the machine answered
    wanted TEXT,                   -- the centre's order: enabled, disabled (SAS 02/01); NULL none
    applied TEXT,                  -- the order the machine took (NULL: not since its connection)
    game_wanted TEXT,              -- the centre's order for game 1: enabled, disabled (SAS 09); NULL none
    game_applied TEXT              -- the game order the machine took (NULL: not since its connection)
)
;
-- Every validation id this system ever gave: never given twice, to any machine (docs/coupons.md).
CREATE TABLE IF NOT EXISTS validation_ids (
    vid INTEGER PRIMARY KEY,
    cabinet TEXT NOT NULL,
    given_at BIGINT NOT NULL
)
;
-- What the site saw, in the site's own sequence per cabinet (origin 'site'), and what the centre
-- did to a cabinet (origin 'centre', its own sequence): an event is stored once under
-- (cabinet, origin, seq), so a replay of the same message stores nothing more.
CREATE TABLE IF NOT EXISTS events (
    cabinet TEXT NOT NULL,
    origin TEXT NOT NULL,
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    kind TEXT NOT NULL,            -- exception (SAS general poll), link, coupon, validation, order
    code INTEGER,                  -- the SAS exception code
    detail TEXT NOT NULL,
    PRIMARY KEY (cabinet, origin, seq)
)
;
-- A meter snapshot: one SAS 2F (every meter of one poll, so they agree with each other) and 1C.
CREATE TABLE IF NOT EXISTS meter_snapshots (
    cabinet TEXT NOT NULL,
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    coin_in BIGINT NOT NULL,
    coin_out BIGINT NOT NULL,
    jackpot BIGINT NOT NULL,
    cancelled BIGINT NOT NULL,
    drop_in BIGINT NOT NULL,
    credits BIGINT NOT NULL,
    games_played BIGINT NOT NULL,
    games_won BIGINT NOT NULL,
    doors BIGINT NOT NULL,
    power_resets BIGINT NOT NULL,
    PRIMARY KEY (cabinet, seq)
)
;
-- A snapshot the reconciliation refused: a meter that went backwards or jumped, or credits that
-- do not balance (central/meters.py).
CREATE TABLE IF NOT EXISTS meter_flags (
    cabinet TEXT NOT NULL,
    seq BIGINT NOT NULL,
    meter TEXT NOT NULL,
    before_value BIGINT NOT NULL,
    after_value BIGINT NOT NULL,
    why TEXT NOT NULL,
    PRIMARY KEY (cabinet, seq, meter)
)
;
-- Every coupon a machine reported (SAS 4D), by its 18-digit control number; paid once.
CREATE TABLE IF NOT EXISTS coupons (
    number TEXT PRIMARY KEY,
    cabinet TEXT NOT NULL,
    vid INTEGER NOT NULL,
    ticket INTEGER NOT NULL,       -- the machine's coupon sequence (4D's ticket number)
    cents BIGINT NOT NULL,
    issued_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    recorded_at BIGINT NOT NULL,
    paid_at BIGINT,
    paid_by TEXT,
    paid_request TEXT
)
;
-- Every cashier's request, paid or refused, by the cashier's own request id: the same request
-- again (a retry after a crash or a lost answer) gets the answer it had, and pays nothing more.
CREATE TABLE IF NOT EXISTS redemptions (
    request TEXT PRIMARY KEY,
    number TEXT NOT NULL,
    cashier TEXT NOT NULL,
    at BIGINT NOT NULL,
    outcome TEXT NOT NULL,         -- paid, refused
    reason TEXT NOT NULL,
    cents BIGINT NOT NULL
)
;
-- What the relay found degraded (central/degraded.py): a site's link, a message it cannot apply.
CREATE TABLE IF NOT EXISTS degraded (
    what TEXT NOT NULL,            -- link, relay
    name TEXT NOT NULL,            -- the site
    since BIGINT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (what, name)
)
;
-- A message the relay could not apply (central/degraded.py), by its sequence in the centre's stream:
-- kept with the reason while it blocks its site's messages, then for the record once it was applied
-- after all or an operator set it aside (the relay acks it unapplied and goes on).
CREATE TABLE IF NOT EXISTS unapplied (
    site TEXT NOT NULL,
    seq BIGINT NOT NULL,           -- its sequence in the stream CENTRE (the number the relay's row gives)
    subject TEXT NOT NULL,
    message TEXT NOT NULL,         -- the message as received (as UTF-8; a byte that is not, replaced)
    reason TEXT NOT NULL,          -- why it was not applied (the last failure's)
    since BIGINT NOT NULL,         -- its first failure
    resolved TEXT,                 -- NULL: blocking; applied; set aside
    resolved_at BIGINT,
    resolved_by TEXT,              -- the operator who set it aside
    PRIMARY KEY (site, seq)
)
;
CREATE INDEX IF NOT EXISTS coupons_by_cents ON coupons (cents)
;
CREATE INDEX IF NOT EXISTS snapshots_by_time ON meter_snapshots (cabinet, at)
