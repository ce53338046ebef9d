-- Standing orders (issue 31, point 3; src/orders.rs): what a power's
-- player decided in advance for its battle decisions. Private to the
-- player; one row a power that has orders.
CREATE TABLE standing_orders (
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    power        TEXT    NOT NULL,
    orders_json  TEXT    NOT NULL,
    updated_at   BIGINT  NOT NULL,
    PRIMARY KEY (game_id, power)
);
