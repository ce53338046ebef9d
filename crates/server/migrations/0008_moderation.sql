-- Moderation (issue 32, src/moderation.rs): administrators, players'
-- reports of games, and the audit log of every administrator's action.

-- Administrators ban and unban accounts and close reports. An
-- administrator is never banned (the routes refuse it, and a ban's UPDATE
-- is guarded on it), so that nobody bans the last one out.
ALTER TABLE accounts ADD COLUMN admin BIGINT NOT NULL DEFAULT 0 CHECK (admin IN (0, 1));

-- A player's report of a game, open until an administrator closes it (the
-- reason for closing is in the audit log). Numbered by the server, like the
-- chat: autoincrement is spelled differently by the two databases.
CREATE TABLE reports (
    n            BIGINT  NOT NULL PRIMARY KEY,
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    reporter_id  TEXT    NOT NULL REFERENCES accounts (id),
    reason       TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 1000),
    created_at   BIGINT  NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    closed_by    TEXT    REFERENCES accounts (id),
    closed_at    BIGINT,
    CONSTRAINT reports_closed_whole CHECK (
        (status = 'open' AND closed_by IS NULL AND closed_at IS NULL)
        OR (status = 'closed' AND closed_by IS NOT NULL AND closed_at IS NOT NULL))
);
-- One open report a player and game: a second waits until the first is closed.
CREATE UNIQUE INDEX reports_one_open ON reports (game_id, reporter_id) WHERE status = 'open';
CREATE INDEX reports_by_status ON reports (status, n);
-- The reports a player filed lately, for the hourly limit.
CREATE INDEX reports_by_reporter ON reports (reporter_id, created_at);

-- Every administrator's action, in the order committed: each row is written
-- in the transaction of the change it records, and numbered there (the
-- numbers' unique key makes two at once number in turn), so a reader
-- following `n` never misses a row. Append-only: the database itself
-- refuses UPDATE and DELETE (the triggers below), not only the server.
CREATE TABLE audit_log (
    n         BIGINT  NOT NULL PRIMARY KEY,
    at        BIGINT  NOT NULL,
    -- The administrator's account; NULL where the server itself acted
    -- (granting the accounts `warboard serve --admin` names).
    actor_id  TEXT    REFERENCES accounts (id),
    action    TEXT    NOT NULL
              CHECK (action IN ('ban', 'unban', 'close-report', 'grant-admin', 'revoke-admin')),
    -- What was acted on: an account's id, or (close-report) a report's number.
    target    TEXT    NOT NULL,
    reason    TEXT    NOT NULL
);

-- backend: sqlite
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only: its rows are never changed');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only: its rows are never deleted');
END;
-- backend: postgres
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP;
END;
$$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
-- backend: all
