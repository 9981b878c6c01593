/// One option of a command: its flag, its value, its help line, the environment variable that
/// may give it instead, and how it changes the command's settings. Commands declare their
/// options once; the same declarations parse the arguments and write `--help`, so the two
/// cannot drift.
public struct CommandLineOption<Settings>: Sendable {
    /// The flag, e.g. `--port`.
    public let name: String
    /// The value's placeholder, e.g. `<port>`; nil for a switch that takes no value.
    public let valueName: String?
    /// What the option does, one or more sentences (wrapped in the help).
    public let help: String
    /// The default as the help shows it, if there is one.
    public let defaultText: String?
    /// The environment variable that gives the option when the flag is absent (the flag wins).
    public let environment: String?
    /// Changes the settings for one occurrence; the value is nil for a switch.
    let apply: @Sendable (inout Settings, String?) throws(UsageError) -> Void

    /// An option with a value.
    public init(
        _ name: String, _ valueName: String, help: String, default defaultText: String? = nil,
        environment: String? = nil, apply: @escaping @Sendable (inout Settings, String) throws(UsageError) -> Void
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.defaultText = defaultText
        self.environment = environment
        self.apply = { settings, value throws(UsageError) in
            guard let value else { throw UsageError("option \(name) needs a value") }
            try apply(&settings, value)
        }
    }

    /// A switch: present or absent. In the environment it is on for `1`, `true` or `yes`.
    public init(
        _ name: String, help: String, environment: String? = nil,
        apply: @escaping @Sendable (inout Settings) throws(UsageError) -> Void
    ) {
        self.name = name
        self.valueName = nil
        self.help = help
        self.defaultText = nil
        self.environment = environment
        self.apply = { settings, value throws(UsageError) in
            guard value == nil else { throw UsageError("option \(name) takes no value") }
            try apply(&settings)
        }
    }
}

/// The typed readers option declarations use; each error names the option.
public enum OptionValue {
    /// An integer in `range`.
    public static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("option \(option) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// An integer in `range`, 64 bits.
    public static func integer64(_ text: String, option: String, in range: ClosedRange<Int64>) throws(UsageError) -> Int64 {
        guard let number = Int64(text), range.contains(number) else {
            throw UsageError("option \(option) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A duration in seconds, fractions allowed, in (0, 86400].
    public static func seconds(_ text: String, option: String) throws(UsageError) -> Duration {
        guard let number = Double(text), number > 0, number <= 86_400 else {
            throw UsageError("option \(option) must be a number of seconds in (0, 86400], got '\(text)'")
        }
        return .milliseconds(Int64((number * 1000).rounded()))
    }

    /// One of the raw values of `T`.
    public static func choice<T: RawRepresentable & CaseIterable>(_ text: String, option: String, as: T.Type) throws(UsageError)
        -> T where T.RawValue == String
    {
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue)
            let list = names.count == 2 ? names.joined(separator: " or ")
                : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
            throw UsageError("option \(option) must be \(list), got '\(text)'")
        }
        return value
    }

    /// A non-empty string.
    public static func nonEmpty(_ text: String, option: String) throws(UsageError) -> String {
        guard !text.isEmpty else { throw UsageError("option \(option) must not be empty") }
        return text
    }
}
