-- Sealed bids for sides (issue 32, point 4; src/bids.rs, docs/ladder.md
-- "Sealed bids"): a game created with a bid has one row for each of its two
-- bidders from its creation on. A bidder first seals a commitment (64 hex
-- digits), then reveals the bid that opens it: the IPCs and the nonce. The
-- server never learns a bid before its reveal. Each change locks the game's
-- rows first (src/store/bids.rs).
CREATE TABLE bids (
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    account_id   TEXT    NOT NULL REFERENCES accounts (id),
    -- The rule that turns the two bids into sides: 'lower-axis' (DAAK's: the
    -- lower bid plays the Axis and gets its bid).
    rule         TEXT    NOT NULL CHECK (rule IN ('lower-axis')),
    commitment   TEXT    CHECK (LENGTH(commitment) = 64),
    sealed_at    BIGINT,
    ipcs         BIGINT  CHECK (ipcs >= 0),
    nonce        TEXT    CHECK (LENGTH(nonce) = 64),
    revealed_at  BIGINT,
    PRIMARY KEY (game_id, account_id),
    CONSTRAINT bids_sealed_together CHECK ((commitment IS NULL) = (sealed_at IS NULL)),
    CONSTRAINT bids_revealed_together CHECK ((ipcs IS NULL) = (nonce IS NULL) AND (ipcs IS NULL) = (revealed_at IS NULL)),
    CONSTRAINT bids_revealed_after_sealed CHECK (ipcs IS NULL OR commitment IS NOT NULL)
);
CREATE INDEX bids_by_account ON bids (account_id);
