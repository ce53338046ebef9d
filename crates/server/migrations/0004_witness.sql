-- The club's witness for games played by e-mail (docs/pbem.md): the
-- server's signing key, the games it witnesses, and every entry it
-- receipted, at most one a number, so that nobody can have a second entry
-- receipted for a number once the first one's dice are known.

-- Keys the server signs with, by purpose; made on first use, shared by
-- every server on one database.
CREATE TABLE server_keys (
    name        TEXT    NOT NULL PRIMARY KEY,
    secret_hex  TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

CREATE TABLE witness_games (
    -- 32 hex digits: the header's game id.
    game_id      TEXT    NOT NULL PRIMARY KEY,
    header_json  TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL
);

CREATE TABLE witness_receipts (
    game_id       TEXT    NOT NULL REFERENCES witness_games (game_id) ON DELETE CASCADE,
    n             BIGINT  NOT NULL,
    entry_hash    TEXT    NOT NULL,
    -- The next entry's prev: the hash of this entry and its receipt.
    next_prev     TEXT    NOT NULL,
    server_time   BIGINT  NOT NULL,
    receipt_json  TEXT    NOT NULL,
    PRIMARY KEY (game_id, n)
);
