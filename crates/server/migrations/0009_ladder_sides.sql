-- Sides and bids of rated games (issue 32: a player's results by side, side
-- balance; src/ladder.rs): the side, axis or allies, each of a result's two
-- sides played (from the powers its accounts held; NULL where a side held
-- powers of both, as Alternative's own teams may), and the IPCs the Axis
-- got from a bid (NULL: no bid; sealed bids are not on the server yet).
ALTER TABLE rated_results ADD COLUMN side_a_plays TEXT CHECK (side_a_plays IN ('axis', 'allies'));
ALTER TABLE rated_results ADD COLUMN side_b_plays TEXT CHECK (side_b_plays IN ('axis', 'allies'));
ALTER TABLE rated_results ADD COLUMN bid BIGINT CHECK (bid >= 0);

-- Results kept before: where the game's fixed teams are the two sides
-- (every family but Alternative, whose teams are an option), the winning
-- team's name is the side the winners played.
UPDATE rated_results
SET side_a_plays = (SELECT games.winner FROM games WHERE games.id = rated_results.game_id),
    side_b_plays = (SELECT CASE games.winner WHEN 'axis' THEN 'allies' ELSE 'axis' END FROM games WHERE games.id = rated_results.game_id)
WHERE family <> 'alternative'
  AND outcome = 'win'
  AND (SELECT games.winner FROM games WHERE games.id = rated_results.game_id) IN ('axis', 'allies');
