-- Rated results (issue 32, src/ladder.rs): one row a rated game, written
-- once when it ends; ratings are computed from them in order, never stored.
CREATE TABLE rated_results (
    game_id   TEXT    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    family    TEXT    NOT NULL CHECK (family IN ('classic', 'europe', 'anniversary', 'alternative')),
    ended_at  BIGINT  NOT NULL,
    -- Account ids of each side, comma-separated; side_a is the winner's unless a draw.
    side_a    TEXT    NOT NULL,
    side_b    TEXT    NOT NULL,
    outcome   TEXT    NOT NULL CHECK (outcome IN ('win', 'draw')),
    how       TEXT    NOT NULL CHECK (how IN ('victory', 'surrender', 'claim'))
);
CREATE INDEX rated_results_by_family ON rated_results (family, ended_at);
