/// Walks `--name value`, `--name=value` and `--flag` arguments, with typed readers that report
/// bad values as `UsageError`s naming the option.
struct ArgumentScanner {
    private var arguments: ArraySlice<String>

    init(_ arguments: [String]) { self.arguments = arguments[...] }

    /// The next option name (without its inline `=value`), or nil at the end.
    mutating func nextOption() throws(UsageError) -> (name: String, inlineValue: String?)? {
        guard let argument = arguments.popFirst() else { return nil }
        guard argument.hasPrefix("--") || argument == "-h" else {
            throw UsageError("unexpected argument '\(argument)'")
        }
        if let equals = argument.firstIndex(of: "=") {
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        return (argument, nil)
    }

    mutating func value(for option: (name: String, inlineValue: String?)) throws(UsageError) -> String {
        if let inline = option.inlineValue { return inline }
        guard let value = arguments.popFirst(), !value.hasPrefix("--") else {
            throw UsageError("option \(option.name) needs a value")
        }
        return value
    }

    mutating func integer(
        for option: (name: String, inlineValue: String?), in range: ClosedRange<Int>
    ) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("option \(option.name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A duration in seconds, fractions allowed (`--header-timeout 0.5`).
    mutating func seconds(for option: (name: String, inlineValue: String?)) throws(UsageError) -> Duration {
        let text = try value(for: option)
        guard let number = Double(text), number > 0, number <= 86_400 else {
            throw UsageError("option \(option.name) must be a number of seconds in (0, 86400], got '\(text)'")
        }
        return .milliseconds(Int64((number * 1000).rounded()))
    }
}
