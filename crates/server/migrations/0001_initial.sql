-- The server's schema. One file for SQLite and PostgreSQL alike, so it keeps
-- to what both accept: TEXT ids made by the server (no autoincrement, which the
-- two spell differently), BIGINT unix milliseconds, BIGINT 0/1 for flags
-- (BOOLEAN decodes differently through sqlx's Any driver), enums as TEXT
-- guarded by CHECK.

CREATE TABLE accounts (
    id              TEXT    NOT NULL PRIMARY KEY,
    name            TEXT    NOT NULL,
    -- The name lower-cased by the server: names are unique regardless of case,
    -- and lower-casing in Rust avoids depending on either database's collation.
    name_key        TEXT    NOT NULL,
    password_hash   TEXT    NOT NULL,
    created_at      BIGINT  NOT NULL,
    failed_signins  BIGINT  NOT NULL DEFAULT 0,
    locked_until    BIGINT  NOT NULL DEFAULT 0,
    banned          BIGINT  NOT NULL DEFAULT 0 CHECK (banned IN (0, 1)),
    CONSTRAINT accounts_name_key_unique UNIQUE (name_key)
);

-- Only hashes of tokens are stored: a leaked database grants no sessions.
CREATE TABLE tokens (
    token_hash  TEXT    NOT NULL PRIMARY KEY,
    account_id  TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('session', 'api')),
    label       TEXT,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT
);
CREATE INDEX tokens_by_account ON tokens (account_id, kind);

CREATE TABLE games (
    id            TEXT    NOT NULL PRIMARY KEY,
    ruleset       TEXT    NOT NULL,
    options_json  TEXT    NOT NULL,
    -- Secret: holds the dice seed. Never sent to clients while the game runs.
    start_json    TEXT    NOT NULL,
    created_by    TEXT    NOT NULL REFERENCES accounts (id),
    created_at    BIGINT  NOT NULL,
    is_public     BIGINT  NOT NULL CHECK (is_public IN (0, 1)),
    status        TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'playing', 'over')),
    -- Number of log entries appended so far; appends and undos are guarded on it.
    seq           BIGINT  NOT NULL DEFAULT 0,
    -- Denormalised from the log so game lists need not replay it.
    actor         TEXT,
    winner        TEXT
);
CREATE INDEX games_by_status ON games (status, is_public, created_at);
CREATE INDEX games_by_creator ON games (created_by, status);

CREATE TABLE seats (
    game_id     TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- Keeps the seats in the order the game listed them.
    ordinal     BIGINT  NOT NULL,
    power       TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('open', 'account', 'computer')),
    account_id  TEXT    REFERENCES accounts (id),
    think_ms    BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, power),
    CONSTRAINT seats_ordinal_unique UNIQUE (game_id, ordinal),
    CONSTRAINT seats_holder_matches_kind
        CHECK ((kind = 'account' AND account_id IS NOT NULL)
            OR (kind <> 'account' AND account_id IS NULL))
);
CREATE INDEX seats_by_account ON seats (account_id);

-- The durability core: every accepted action is committed here before the
-- server acknowledges it. Append-only except for undo of the last entry.
CREATE TABLE game_log (
    game_id     TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         BIGINT  NOT NULL,
    entry_json  TEXT    NOT NULL,
    -- The client's idempotency key; NULL (computer moves) may repeat, since
    -- both databases treat NULLs as distinct in a UNIQUE constraint.
    client_id   TEXT,
    account_id  TEXT    REFERENCES accounts (id),
    state_hash  TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seq),
    CONSTRAINT game_log_client_id_unique UNIQUE (game_id, client_id)
);
