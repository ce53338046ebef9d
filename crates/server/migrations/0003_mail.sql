-- "Your turn" mail (issue 31): an account's address and whether it wants
-- a mail when a game waits for it. A table of its own rather than columns
-- on accounts: a row exists exactly while the account has an address, and
-- accounts keep the shape every query joining them reads.
CREATE TABLE account_mail (
    account_id         TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    address            TEXT    NOT NULL,
    -- On when an address is set; off by the account or its unsubscribe link.
    turn_mail          BIGINT  NOT NULL DEFAULT 1 CHECK (turn_mail IN (0, 1)),
    -- Kept as it is, not hashed: every mail carries it in its unsubscribe
    -- link, and it can do nothing but switch this account's turn mail off.
    -- A new one with every new address, so an old address's links stop.
    unsubscribe_token  TEXT    NOT NULL,
    updated_at         BIGINT  NOT NULL,
    CONSTRAINT account_mail_token_unique UNIQUE (unsubscribe_token)
);
