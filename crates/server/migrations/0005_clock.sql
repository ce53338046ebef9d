-- Correspondence games (issue 31): a time per move, vacation days, and
-- what happens when the time runs out. Kept in the database rather than in
-- a server's memory, so that every server on one PostgreSQL database and a
-- restarted server see one clock. Every change to a game's clock first
-- updates its row in game_clocks, which serialises them per game (a row
-- lock on PostgreSQL, the one writer on SQLite): two servers ticking at
-- once read the same state in turn, and only the first finds a reminder
-- or an expiry still to make.

-- One row per game with a clock: its settings and the wait now running.
CREATE TABLE game_clocks (
    game_id        TEXT    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    move_days      BIGINT  NOT NULL CHECK (move_days IN (1, 2, 3, 5, 7, 10, 14)),
    vacation_days  BIGINT  NOT NULL CHECK (vacation_days BETWEEN 0 AND 60),
    -- The game's entry count the wait was worked out at: a wait behind the
    -- log (a server stopped between a commit and its clock) is caught up.
    wait_seq       BIGINT  NOT NULL DEFAULT -1,
    -- Numbers the waits, so that a late reminder or expiry names the wait
    -- it was meant for and does nothing to a newer one.
    wait_n         BIGINT  NOT NULL DEFAULT 0,
    -- The power the game waits for; the account holding it, when an
    -- account does (a computer's or an open seat has no clock).
    wait_power     TEXT,
    wait_account   TEXT    REFERENCES accounts (id),
    wait_started   BIGINT,
    wait_deadline  BIGINT,
    wait_stage     TEXT    NOT NULL DEFAULT 'running'
                           CHECK (wait_stage IN ('running', 'half', 'late', 'expired')),
    -- Events recorded so far: the next one's number.
    events         BIGINT  NOT NULL DEFAULT 0,
    CONSTRAINT game_clocks_wait_whole CHECK (
        (wait_account IS NULL AND wait_started IS NULL AND wait_deadline IS NULL)
        OR (wait_account IS NOT NULL AND wait_started IS NOT NULL AND wait_deadline IS NOT NULL))
);
CREATE INDEX game_clocks_by_deadline ON game_clocks (wait_deadline);

-- Each account's vacation in a game: a row from its first vacation on.
CREATE TABLE clock_vacations (
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    account_id   TEXT    NOT NULL REFERENCES accounts (id),
    days_left    BIGINT  NOT NULL CHECK (days_left >= 0),
    -- Taken while the game waited on someone else: added to this
    -- account's next wait.
    banked_days  BIGINT  NOT NULL DEFAULT 0 CHECK (banked_days >= 0),
    PRIMARY KEY (game_id, account_id)
);

-- Seats the computer took from an account whose time ran out in a team
-- game, until it reclaims them.
CREATE TABLE clock_takeovers (
    game_id     TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    power       TEXT    NOT NULL,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    taken_at    BIGINT  NOT NULL,
    PRIMARY KEY (game_id, power)
);

-- What the clock did, numbered per game; append-only.
CREATE TABLE game_events (
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n            BIGINT  NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('reminder_half', 'reminder_late', 'expired', 'claimed',
                                                  'taken_over', 'reclaimed', 'vacation')),
    account_id   TEXT    REFERENCES accounts (id),
    power        TEXT,
    at_ms        BIGINT  NOT NULL,
    detail_json  TEXT    NOT NULL,
    PRIMARY KEY (game_id, n)
);
