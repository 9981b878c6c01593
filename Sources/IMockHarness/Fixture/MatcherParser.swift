import IMockCore

/// Matchers and callback patterns from fixture JSON.
enum MatcherParser {
    /// A value matcher: plain JSON is exact; `{"$any": true}`, `{"$regex": "…"}`,
    /// `{"$range": [min, max]}`, `{"$subset": {…}}` are operators.
    static func matcher(_ value: JSONValue, at path: String) throws(FixtureError) -> ValueMatcher {
        if let members = value.objectValue, members.count == 1, members[0].key.hasPrefix("$") {
            return try operatorMatcher(members[0].key, members[0].value, at: "\(path).\(members[0].key)")
        }
        if let members = value.objectValue {
            for member in members where containsOperator(member.value) {
                throw FixtureError(
                    path: "\(path).\(member.key)",
                    reason: "an object with matchers inside must be written as {\"$subset\": {…}}")
            }
            if let key = members.first(where: { $0.key.hasPrefix("$") })?.key {
                throw FixtureError(path: "\(path).\(key)", reason: "unknown matcher (use $any, $regex, $range or $subset)")
            }
            return .exact(value)
        }
        if let elements = value.arrayValue, elements.contains(where: containsOperator) {
            var matchers: [ValueMatcher] = []
            for (index, element) in elements.enumerated() { matchers.append(try matcher(element, at: "\(path)[\(index)]")) }
            return .array(matchers)
        }
        return .exact(value)
    }

    /// An object whose members must match, others ignored (result and response bodies).
    static func subset(_ value: JSONValue, at path: String) throws(FixtureError) -> ValueMatcher {
        if let elements = value.arrayValue {
            var matchers: [ValueMatcher] = []
            for (index, element) in elements.enumerated() { matchers.append(try subset(element, at: "\(path)[\(index)]")) }
            return .array(matchers)
        }
        guard let members = value.objectValue else { return try matcher(value, at: path) }
        if members.count == 1, members[0].key.hasPrefix("$") { return try matcher(value, at: path) }
        var result: [(key: String, matcher: ValueMatcher)] = []
        for member in members {
            let memberPath = FixtureReader.child(path, member.key)
            result.append((member.key, try subset(member.value, at: memberPath)))
        }
        return .subset(result)
    }

    private static func containsOperator(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): members.contains { $0.key.hasPrefix("$") || containsOperator($0.value) }
        case .array(let elements): elements.contains(where: containsOperator)
        default: false
        }
    }

    private static func operatorMatcher(_ name: String, _ value: JSONValue, at path: String) throws(FixtureError) -> ValueMatcher {
        switch name {
        case "$any":
            guard value == .bool(true) else { throw FixtureError(path: path, reason: "must be true") }
            return .any
        case "$regex":
            guard let pattern = value.stringValue else { throw FixtureError(path: path, reason: "must be a string") }
            if let problem = RegexMatch.problem(pattern) {
                throw FixtureError(path: path, reason: "not a regular expression: \(problem)")
            }
            return .regex(pattern)
        case "$range":
            guard let bounds = value.arrayValue, bounds.count == 2,
                bounds.allSatisfy({ $0.isNull || ValueMatcher.number($0) != nil })
            else { throw FixtureError(path: path, reason: "must be [min, max] with numbers or null") }
            let minimum = ValueMatcher.number(bounds[0])
            let maximum = ValueMatcher.number(bounds[1])
            if let minimum, let maximum, minimum > maximum {
                throw FixtureError(path: path, reason: "min is greater than max")
            }
            return .range(min: minimum, max: maximum)
        case "$subset":
            guard value.objectValue != nil else { throw FixtureError(path: path, reason: "must be an object") }
            return try subset(value, at: path)
        default:
            throw FixtureError(path: path, reason: "unknown matcher (use $any, $regex, $range or $subset)")
        }
    }

    // MARK: Callback patterns

    /// A pattern: `"name"`, `"name(arg: json, …)"`, `"device: name(…)"`, or
    /// `{"device", "callback", "args", "at"}`. `device` is the expectation's device, if it has one.
    static func pattern(_ value: JSONValue, at path: String, device: String?, known: Set<String>) throws(FixtureError)
        -> CallbackPattern
    {
        let pattern: CallbackPattern
        if let text = value.stringValue {
            pattern = try shorthand(text, at: path, device: device)
        } else {
            let reader = try FixtureReader(value, at: path, allowed: ["device", "callback", "args", "at"])
            guard let name = try reader.string("callback"), !name.isEmpty else { throw reader.fail("callback", "is required") }
            var arguments: [(name: String, matcher: ValueMatcher)] = []
            if let args = reader.value("args") {
                guard let members = args.objectValue else { throw reader.fail("args", "must be an object") }
                for member in members {
                    arguments.append((member.key, try matcher(member.value, at: "\(reader.at("args")).\(member.key)")))
                }
            }
            var at: ValueMatcher?
            if let time = reader.value("at") { at = try timeMatcher(time, at: reader.at("at")) }
            let named = try reader.string("device")
            if let named, let device, named != device {
                throw reader.fail("device", "the sequence is of device \"\(device)\"")
            }
            guard let owner = named ?? device else { throw reader.fail("device", "is required") }
            pattern = CallbackPattern(device: owner, name: name, arguments: arguments, at: at)
        }
        guard known.contains(pattern.device) else {
            throw FixtureError(path: path, reason: "unknown device \"\(pattern.device)\" (devices: \(known.sorted().joined(separator: ", ")))")
        }
        return pattern
    }

    /// `at`: a duration since the start (`"48m"`), or `{"$range": ["47m", "49m"]}`.
    static func timeMatcher(_ value: JSONValue, at path: String) throws(FixtureError) -> ValueMatcher {
        func ms(_ value: JSONValue, _ path: String) throws(FixtureError) -> Double? {
            if value.isNull { return nil }
            if let number = value.intValue { return Double(number) }
            guard let text = value.stringValue, let ms = DurationText.parse(text) else {
                throw FixtureError(path: path, reason: "must be a duration like \"48m\"")
            }
            return Double(ms)
        }
        if let range = value["$range"]?.arrayValue, range.count == 2 {
            return .range(min: try ms(range[0], "\(path).$range[0]"), max: try ms(range[1], "\(path).$range[1]"))
        }
        guard let exact = try ms(value, path) else { throw FixtureError(path: path, reason: "must not be null") }
        return .exact(.int(Int64(exact)))
    }

    private static func shorthand(_ text: String, at path: String, device: String?) throws(FixtureError) -> CallbackPattern {
        var rest = Substring(text)
        var owner = device
        if let colon = rest.firstIndex(of: ":"), rest.firstIndex(of: "(").map({ colon < $0 }) ?? true {
            let named = rest[..<colon].trimmingSpaces
            if let device, named != device {
                throw FixtureError(path: path, reason: "the sequence is of device \"\(device)\"")
            }
            owner = String(named)
            rest = rest[rest.index(after: colon)...]
        }
        rest = rest.trimmingSpaces
        guard let owner else {
            throw FixtureError(path: path, reason: "needs a device: \"device: \(text)\"")
        }
        let name = rest.prefix { $0 != "(" }.trimmingSpaces
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw FixtureError(path: path, reason: "not a callback: \"\(text)\" (write name or name(arg: value, …))")
        }
        rest = rest.dropFirst(name.count)
        var arguments: [(name: String, matcher: ValueMatcher)] = []
        if !rest.isEmpty {
            guard rest.first == "(", rest.last == ")" else {
                throw FixtureError(path: path, reason: "arguments must be in parentheses: name(arg: value, …)")
            }
            var inner = Substring(rest.dropFirst().dropLast())
            while !inner.trimmingSpaces.isEmpty {
                inner = inner.trimmingSpaces
                guard let colon = inner.firstIndex(of: ":") else {
                    throw FixtureError(path: path, reason: "argument without \"name:\" in \"\(text)\"")
                }
                let argument = String(inner[..<colon].trimmingSpaces)
                inner = inner[inner.index(after: colon)...]
                let end = jsonEnd(inner)
                let json = inner[..<end].trimmingSpaces
                let parsed: JSONValue
                do { parsed = try JSONValue.parse(String(json)) } catch {
                    throw FixtureError(path: path, reason: "argument \(argument): \(json) is not JSON (\(error.reason.rawValue))")
                }
                arguments.append((argument, try matcher(parsed, at: "\(path)(\(argument))")))
                inner = inner[end...]
                if inner.first == "," { inner = inner.dropFirst() }
            }
        }
        return CallbackPattern(device: owner, name: String(name), arguments: arguments, at: nil)
    }

    /// Where the JSON value at the start of `text` ends: the first `,` outside brackets and strings.
    private static func jsonEnd(_ text: Substring) -> Substring.Index {
        var depth = 0
        var inString = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
            } else if character == ",", depth == 0 {
                return index
            }
            index = text.index(after: index)
        }
        return text.endIndex
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
