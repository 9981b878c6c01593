/// One step of the schema's history: the DDL that takes a database from `version - 1` to
/// `version`. Released steps are never edited: a later change is a new step.
struct Migration: Sendable {
    /// The schema version after this step (`PRAGMA user_version`).
    let version: Int
    /// What the step adds, in words (for logs and docs/PERSISTENCE.md).
    let summary: String
    /// The statements, run in one transaction together with the version bump.
    let sql: String
}

/// The ordered history of the schema. Version 0 is an empty file; the latest version is what
/// this build writes.
enum Schema {
    /// `PRAGMA application_id` of an imock store ("imck"): marks the file as imock's, so a
    /// different SQLite database put in the data directory is refused rather than migrated.
    static let applicationID: Int32 = 0x696D_636B

    /// Every released step, in order: version `n` is `migrations[n - 1]`.
    static let migrations: [Migration] = [SchemaV1.migration, SchemaV2.migration]

    /// The version this build creates and writes.
    static var latestVersion: Int { migrations.count }
}
