/// A value bound to a statement parameter: one of SQLite's storage classes (REAL is not used
/// by imock).
public enum SQLiteValue: Sendable, Equatable {
    /// A 64-bit signed integer.
    case integer(Int64)
    /// UTF-8 text (may contain NUL bytes).
    case text(String)
    /// Bytes.
    case blob([UInt8])
    /// SQL NULL.
    case null

    /// `1` or `0`.
    public static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }

    /// The integer, or NULL.
    public static func integer(orNull value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }

    /// An `Int` as an integer, or NULL.
    public static func integer(orNull value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }

    /// The text, or NULL.
    public static func text(orNull value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    /// The bytes, or NULL.
    public static func blob(orNull value: [UInt8]?) -> SQLiteValue { value.map { .blob($0) } ?? .null }
}
