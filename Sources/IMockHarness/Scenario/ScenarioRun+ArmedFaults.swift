import IMockCore

extension ScenarioRun {
    /// Keeps a fault step with `when` until its callback is observed.
    func arm(_ call: ControlCall, when pattern: CallbackPattern) {
        armedFaults.append((call, pattern, observations.lastSequence))
    }

    /// Makes the first armed fault whose callback was observed since it was armed, as its step
    /// would have (checked after every settle round, so at the virtual time of the callback and
    /// before the clock moves on); true when it made one.
    func fireArmedFaults() async throws(ScenarioFailure) -> Bool {
        let startMs = time.startMs
        guard let index = armedFaults.firstIndex(where: { armed in
            observations.after(armed.mark).contains { ExpectationEvaluator.matches(armed.pattern, $0, startMs) }
        }) else { return false }
        var call = armedFaults.remove(at: index).call
        call.when = nil
        try await perform(call)
        return true
    }
}
