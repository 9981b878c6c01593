/// Regular expressions of `$regex` matchers (Swift `Regex` syntax, searched, not anchored).
enum RegexMatch {
    /// Nil when `pattern` compiles, else why not.
    static func problem(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Whether `pattern` occurs in `text`.
    static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return text.contains(regex)
    }
}
