import IMockClient
import IMockCore

extension FixtureParser {
    /// The members of one expected failure.
    static let expectedFailureKeys = ["reason", "step", "message", "transport", "adapter"]

    /// `expectedFailure`: one object or an array of them, each
    /// `{"reason", "step"?, "message"?, "transport"?, "adapter"?}` with a step or a message (or
    /// both), so that it names the failure it expects.
    static func parseExpectedFailures(_ top: FixtureReader, steps: Int) throws(FixtureError) -> [ExpectedFailure] {
        guard let value = top.value("expectedFailure") else { return [] }
        let path = top.at("expectedFailure")
        guard let entries = value.arrayValue else { return [try parseExpectedFailure(value, at: path, steps: steps)] }
        guard !entries.isEmpty else { throw FixtureError(path: path, reason: "must not be empty") }
        var failures: [ExpectedFailure] = []
        for (index, entry) in entries.enumerated() {
            failures.append(try parseExpectedFailure(entry, at: "\(path)[\(index)]", steps: steps))
        }
        return failures
    }

    private static func parseExpectedFailure(_ value: JSONValue, at path: String, steps: Int) throws(FixtureError) -> ExpectedFailure {
        let reader = try FixtureReader(value, at: path, allowed: expectedFailureKeys)
        let reason = try reader.requiredString("reason")
        let step = try reader.int("step", in: 0...Int64(max(steps - 1, 0))).map(Int.init)
        let message = try reader.string("message")
        if let message {
            guard !message.isEmpty else { throw reader.fail("message", "must not be empty") }
            if let problem = RegexMatch.problem(message) { throw reader.fail("message", "not a regular expression: \(problem)") }
        }
        guard step != nil || message != nil else {
            throw FixtureError(
                path: path, reason: "must name the failure it expects: \"step\" (its index in steps), \"message\" (a pattern), or both")
        }
        let transport = try reader.choice("transport", ClientTransport.allCases.map(\.rawValue)).flatMap(ClientTransport.init)
        let adapter = try reader.string("adapter")
        if adapter?.isEmpty == true { throw reader.fail("adapter", "must not be empty") }
        return ExpectedFailure(reason: reason, step: step, message: message, transport: transport, adapter: adapter)
    }
}
