import IMockCore

/// Changed copies of a fixture's expectations that must fail: proof that its matchers can fail.
/// Each kind changes the first expectation it applies to.
public enum FixtureMutator {
    /// What a mutant changed.
    public enum Kind: String, Sendable, CaseIterable {
        /// Two callbacks of a sequence (or of a cross-device order) swapped.
        case swappedOrder
        /// An integer argument (a code) changed.
        case wrongCode
        /// A callback expected on another device of the fixture.
        case wrongDevice
        /// A callback expected that does not come.
        case missingCallback
        /// A REST call expected to answer with another status.
        case wrongStatus
        /// A state check of a device flipped (logged in, connected, current user, device list).
        case flippedState
        /// An expected callback turned `absent`, listed with one that never comes: the absence
        /// fails because one of its callbacks came (not only when all of them do).
        case presentWhereAbsent
    }

    /// The `kind` mutants of `fixture`: one per expectation it applies to, in step order (the
    /// expected-failure mark removed). A mutant may legitimately still hold (another device had
    /// the same callbacks); the matchers are proven when one of them fails.
    public static func mutants(of fixture: Fixture, _ kind: Kind) -> [(step: String, fixture: Fixture)] {
        fixture.steps.enumerated().compactMap { index, step in
            var copy = fixture
            copy.expectedFailures = []
            switch step.kind {
            case .rest(var call) where kind == .wrongStatus:
                call.status = (call.status ?? 200) == 200 ? 400 : 200
                copy.steps[index].kind = .rest(call)
            case .expect(var expectation):
                guard let changed = mutate(expectation.kind, kind, devices: fixture.devices.map(\.name)) else { return nil }
                expectation.kind = changed
                copy.steps[index].kind = .expect(expectation)
            default:
                return nil
            }
            return (step.path, copy)
        }
    }

    private static func mutate(_ expectation: ExpectationKind, _ kind: Kind, devices: [String]) -> ExpectationKind? {
        switch (expectation, kind) {
        case (.sequence(let device, var patterns, let gaps, let complete), .swappedOrder):
            guard let index = patterns.indices.dropLast().first(where: { patterns[$0].summary != patterns[$0 + 1].summary }) else { return nil }
            patterns.swapAt(index, index + 1)
            return .sequence(device: device, callbacks: patterns, gaps: gaps, complete: complete)
        case (.order(let patterns), .swappedOrder):
            return .order(patterns.reversed())
        case (.sequence(let device, var patterns, let gaps, let complete), .wrongCode):
            guard changeCode(&patterns) else { return nil }
            return .sequence(device: device, callbacks: patterns, gaps: gaps, complete: complete)
        case (.unordered(var patterns), .wrongCode):
            guard changeCode(&patterns) else { return nil }
            return .unordered(patterns)
        case (.sequence(let device, var patterns, let gaps, let complete), .wrongDevice):
            guard let other = devices.first(where: { $0 != device }) else { return nil }
            for index in patterns.indices { patterns[index].device = other }
            return .sequence(device: other, callbacks: patterns, gaps: gaps, complete: complete)
        case (.order(var patterns), .wrongDevice), (.unordered(var patterns), .wrongDevice):
            guard let other = devices.first(where: { $0 != patterns[0].device }) else { return nil }
            patterns[0].device = other
            if case .order = expectation { return .order(patterns) }
            return .unordered(patterns)
        case (.sequence(let device, var patterns, let gaps, let complete), .missingCallback):
            if complete || !gaps {
                patterns.append(patterns[patterns.count - 1])  // the last callback once more
            } else {
                var missing = patterns[patterns.count - 1]
                missing.name += "Missing"
                patterns.append(missing)
            }
            return .sequence(device: device, callbacks: patterns, gaps: gaps, complete: complete)
        case (.state(var check), .flippedState):
            if let loggedIn = check.loggedIn {
                check.loggedIn = !loggedIn
            } else if let connected = check.connected {
                check.connected = !connected
            } else if let user = check.currentUser {
                check.currentUser = .some(user == nil ? "someone-else" : nil)
            } else if let devices = check.devices {
                check.devices = devices.isEmpty ? ["?"] : Array(devices.dropLast())
            } else {
                return nil
            }
            return .state(check)
        case (.sequence(_, let patterns, _, _), .presentWhereAbsent), (.unordered(let patterns), .presentWhereAbsent):
            var never = patterns[0]
            never.name += "NeverCalled"
            never.arguments = []
            never.at = nil
            return .absent([never, patterns[0]], forMs: nil)
        case (.unordered(var patterns), .missingCallback):
            var missing = patterns[0]
            missing.name += "Missing"
            patterns.append(missing)
            return .unordered(patterns)
        default:
            return nil
        }
    }

    /// Changes the first integer argument matcher of `patterns` (a code, a count); false when none.
    private static func changeCode(_ patterns: inout [CallbackPattern]) -> Bool {
        for index in patterns.indices {
            for argument in patterns[index].arguments.indices {
                if let changed = changedCode(patterns[index].arguments[argument].matcher) {
                    patterns[index].arguments[argument].matcher = changed
                    return true
                }
            }
        }
        return false
    }

    private static func changedCode(_ matcher: ValueMatcher) -> ValueMatcher? {
        switch matcher {
        case .exact(.int(let code)): return .exact(.int(code + 1))
        case .subset(var members):
            for index in members.indices {
                if let changed = changedCode(members[index].matcher) {
                    members[index].matcher = changed
                    return .subset(members)
                }
            }
            return nil
        default: return nil
        }
    }
}
