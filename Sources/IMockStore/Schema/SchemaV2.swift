/// Schema version 2: what the control API and the session engine keep beyond the directory —
/// named per-app checkpoints, the distinct active users per app, and one row of server state
/// (the clock, the next message id, the start state that reset returns to).
enum SchemaV2 {
    static let migration = Migration(
        version: 2, summary: "checkpoints, active users, server state (clock, message ids, start state)",
        sql: """
            CREATE TABLE checkpoints (
                app_key TEXT NOT NULL,
                name TEXT NOT NULL,
                state TEXT NOT NULL,
                PRIMARY KEY (app_key, name)
            ) STRICT;

            CREATE TABLE active_users (
                app_key TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
                username TEXT NOT NULL,
                PRIMARY KEY (app_key, username)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE server_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                clock_offset_ms INTEGER,
                clock_frozen_at_ms INTEGER,
                next_message_serial INTEGER CHECK (next_message_serial >= 1),
                start_state TEXT,
                CHECK (clock_frozen_at_ms IS NULL OR clock_offset_ms IS NOT NULL)
            ) STRICT;

            INSERT INTO server_state (id) VALUES (1);
            """)
}
