-- A chat per game (issue 30): what the game's players say to each other,
-- kept with the game and numbered in it as the log is.
CREATE TABLE chat (
    game_id     TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- 0-based, per game: the order everyone reads the messages in.
    n           BIGINT  NOT NULL,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    sent_at     BIGINT  NOT NULL,
    body        TEXT    NOT NULL,
    PRIMARY KEY (game_id, n)
);
