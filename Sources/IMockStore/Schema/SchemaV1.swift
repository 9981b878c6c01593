/// Schema version 1 (the first release): the directory — apps with their settings,
/// credentials, signing key and token counter; users with their password hashes; revoked
/// token ids — and the offline message queues.
enum SchemaV1 {
    static let migration = Migration(
        version: 1, summary: "apps, users, revoked tokens, offline queues",
        sql: """
            CREATE TABLE apps (
                app_key TEXT NOT NULL PRIMARY KEY,
                uuid TEXT NOT NULL,
                client_id TEXT NOT NULL,
                client_secret TEXT NOT NULL,
                signing_key BLOB NOT NULL CHECK (length(signing_key) = 32),
                next_token_id INTEGER NOT NULL CHECK (next_token_id BETWEEN 1 AND 9007199254740991),
                registration_mode TEXT NOT NULL CHECK (registration_mode IN ('open', 'authorized')),
                default_token_ttl_seconds INTEGER NOT NULL CHECK (default_token_ttl_seconds >= 0),
                service_enabled INTEGER NOT NULL CHECK (service_enabled IN (0, 1)),
                active_user_limit INTEGER CHECK (active_user_limit >= 0),
                rest_rate_limit_per_second INTEGER CHECK (rest_rate_limit_per_second >= 1),
                login_policy TEXT NOT NULL
            ) STRICT;

            CREATE TABLE users (
                app_key TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
                username TEXT NOT NULL,
                uuid TEXT NOT NULL,
                password_iterations INTEGER CHECK (password_iterations >= 1),
                password_salt BLOB,
                password_hash BLOB,
                nickname TEXT,
                activated INTEGER NOT NULL CHECK (activated IN (0, 1)),
                created_ms INTEGER NOT NULL,
                modified_ms INTEGER NOT NULL,
                sequence INTEGER NOT NULL CHECK (sequence >= 1),
                minimum_token_id INTEGER NOT NULL CHECK (minimum_token_id >= 1),
                PRIMARY KEY (app_key, username),
                UNIQUE (app_key, uuid),
                UNIQUE (app_key, sequence),
                CHECK ((password_iterations IS NULL) = (password_salt IS NULL)
                    AND (password_salt IS NULL) = (password_hash IS NULL))
            ) STRICT;

            CREATE TABLE revoked_tokens (
                app_key TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
                token_id INTEGER NOT NULL CHECK (token_id BETWEEN 0 AND 9007199254740991),
                PRIMARY KEY (app_key, token_id)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE offline_messages (
                app_key TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
                recipient TEXT NOT NULL,
                position INTEGER NOT NULL,
                message_id TEXT NOT NULL,
                sender TEXT NOT NULL,
                body TEXT NOT NULL,
                timestamp_ms INTEGER NOT NULL,
                UNIQUE (app_key, recipient, position),
                UNIQUE (app_key, recipient, message_id)
            ) STRICT;
            """)
}
