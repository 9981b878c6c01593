/// A command's declaration: its name, what it does, its options. It parses arguments (and the
/// environment variables its options name) into settings, and writes its `--help` from the same
/// declarations.
public struct CommandLineSpec<Settings>: Sendable {
    /// The command as typed after `imock`, e.g. `serve`.
    public let name: String
    /// What it does, a paragraph.
    public let summary: String
    /// Positional arguments, e.g. `[PATHS…]`, in the usage line; nil when it takes none.
    public let positionals: String?
    /// The options, in help order.
    public let options: [CommandLineOption<Settings>]

    /// Declares a command.
    public init(name: String, summary: String, positionals: String? = nil, options: [CommandLineOption<Settings>]) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
    }

    /// Parses `arguments` over `defaults`: first the environment variables of options whose flag
    /// is absent, then the flags in order (the last of a repeated option wins, repeatable ones
    /// accumulate as their declaration says). Positional arguments come back apart (an error
    /// when the command takes none).
    public func parse(
        _ arguments: [String], environment: [String: String] = [:], defaults: Settings
    ) throws(UsageError) -> (settings: Settings, positionals: [String]) {
        var settings = defaults
        var flags: [(option: CommandLineOption<Settings>, value: String?)] = []
        var positionals: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else {
                guard self.positionals != nil else { throw UsageError("unexpected argument '\(argument)'") }
                positionals.append(argument)
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '\(name)'")
            }
            if option.valueName == nil || inline != nil {
                flags.append((option, inline))
            } else if let value = remaining.first, !value.hasPrefix("--") {
                remaining = remaining.dropFirst()
                flags.append((option, value))
            } else {
                throw UsageError("option \(name) needs a value")
            }
        }
        let given = Set(flags.map(\.option.name))
        for option in options where !given.contains(option.name) {
            guard let variable = option.environment, let text = environment[variable], !text.isEmpty else { continue }
            do {
                if option.valueName == nil {
                    if ["1", "true", "yes"].contains(text.lowercased()) { try option.apply(&settings, nil) }
                } else {
                    try option.apply(&settings, text)
                }
            } catch {
                throw UsageError("environment variable \(variable): \(error.message)")
            }
        }
        for flag in flags { try flag.option.apply(&settings, flag.value) }
        return (settings, positionals)
    }

    /// The `--help` text: usage line, summary, one entry per option with its default and its
    /// environment variable.
    public var help: String {
        var lines = ["USAGE: imock \(name) [options]" + (positionals.map { " \($0)" } ?? ""), ""]
        lines += Self.wrap(summary, width: 96, indent: "")
        lines += ["", "OPTIONS:"]
        let entries = options.map { option -> (String, String) in
            var text = option.help
            if let defaultText = option.defaultText { text += " (default \(defaultText))" }
            if let variable = option.environment { text += " [$\(variable)]" }
            return ("  " + option.name + (option.valueName.map { " \($0)" } ?? ""), text)
        } + [("  -h, --help", "Show this help.")]
        let column = min((entries.map(\.0.count).max() ?? 0) + 2, 34)
        for (left, text) in entries {
            let indent = String(repeating: " ", count: column)
            var wrapped = Self.wrap(text, width: 100 - column, indent: "")
            if left.count + 2 > column {
                lines.append(left)
            } else {
                let first = wrapped.removeFirst()
                lines.append(left + String(repeating: " ", count: column - left.count) + first)
            }
            lines += wrapped.map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` broken at spaces into lines of at most `width` characters.
    static func wrap(_ text: String, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(indent + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(indent + line) }
        return lines
    }
}

extension CommandLineSpec {
    /// The environment variable conventionally named after a flag: `--max-body-bytes` →
    /// `IMOCK_MAX_BODY_BYTES`.
    public static func environmentName(for flag: String) -> String {
        "IMOCK_" + flag.drop { $0 == "-" }.uppercased().replacing("-", with: "_")
    }
}
