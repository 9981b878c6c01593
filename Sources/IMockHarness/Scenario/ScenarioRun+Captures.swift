import IMockCore

extension ScenarioRun {
    /// `step` with the values captured so far in place of its `${name}` placeholders (a step
    /// that uses none is returned as it is).
    func resolved(_ step: Step) throws(ScenarioFailure) -> Step {
        guard let template = step.template else { return step }
        do {
            return try template.resolve(captured, at: step.path)
        } catch {
            throw ScenarioFailure("\(step.path) with its captured values (\(Self.describe(captured))): \(error.reason)")
        }
    }

    /// Keeps what `step` captures from its result (a device call) or answer (REST, control).
    func capture(_ step: Step, index: Int) throws(ScenarioFailure) {
        guard !step.captures.isEmpty else { return }
        let source: JSONValue?
        if case .device = step.kind { source = results[index] } else { source = lastAnswer }
        guard let source else {
            throw ScenarioFailure("\(step.path) has nothing to capture from: the call has not completed")
        }
        for capture in step.captures {
            guard let value = capture.value(in: source) else {
                throw ScenarioFailure(
                    "\(step.path) captures ${\(capture.name)} from \(capture.path.joined(separator: ".")), which its "
                        + (step.kind.isDevice ? "result" : "answer") + " does not have",
                    expected: [capture.path.joined(separator: ".")], observed: [source.encodedString])
            }
            captured.append((capture.name, value))
        }
    }

    /// `mid="m-1", n=3`.
    private static func describe(_ values: [(key: String, value: JSONValue)]) -> String {
        values.map { "\($0.key)=\($0.value.encodedString)" }.joined(separator: ", ")
    }
}

extension StepKind {
    var isDevice: Bool {
        if case .device = self { return true }
        return false
    }
}
