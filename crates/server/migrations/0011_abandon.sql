-- A team game the computer finished for a player who left it (issue 32,
-- point 2: abandoning counts as a loss; src/ladder.rs): rated with `how`
-- 'abandon', the side that left it losing. The check on `how` is widened;
-- SQLite cannot alter a check, so its table is built again.
-- backend: sqlite
CREATE TABLE rated_results_new (
    game_id      TEXT    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    family       TEXT    NOT NULL CHECK (family IN ('classic', 'europe', 'anniversary', 'alternative')),
    ended_at     BIGINT  NOT NULL,
    side_a       TEXT    NOT NULL,
    side_b       TEXT    NOT NULL,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'draw')),
    how          TEXT    NOT NULL CHECK (how IN ('victory', 'surrender', 'claim', 'abandon')),
    side_a_plays TEXT    CHECK (side_a_plays IN ('axis', 'allies')),
    side_b_plays TEXT    CHECK (side_b_plays IN ('axis', 'allies')),
    bid          BIGINT  CHECK (bid >= 0)
);
INSERT INTO rated_results_new (game_id, family, ended_at, side_a, side_b, outcome, how, side_a_plays, side_b_plays, bid)
    SELECT game_id, family, ended_at, side_a, side_b, outcome, how, side_a_plays, side_b_plays, bid FROM rated_results;
DROP TABLE rated_results;
ALTER TABLE rated_results_new RENAME TO rated_results;
CREATE INDEX rated_results_by_family ON rated_results (family, ended_at);
-- backend: postgres
ALTER TABLE rated_results DROP CONSTRAINT rated_results_how_check;
ALTER TABLE rated_results ADD CONSTRAINT rated_results_how_check CHECK (how IN ('victory', 'surrender', 'claim', 'abandon'));
-- backend: all
