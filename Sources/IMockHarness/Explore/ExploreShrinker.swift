/// Makes a failing program small while it still fails the same property: first cut what
/// follows the violation, then delta debugging over the operations, then fewer devices and
/// users, then shorter clock moves. `stillFails` runs a candidate and returns its violation of
/// the property, if any; at most `budget` candidates are run.
public struct ExploreShrinker {
    /// Runs a candidate; its violation of the property being shrunk, or nil.
    public var stillFails: (ExploreProgram) async -> ExploreViolation?
    /// Candidates left to run.
    public var budget: Int

    /// A shrinker running at most `budget` candidates through `stillFails`.
    public init(budget: Int = 400, stillFails: @escaping (ExploreProgram) async -> ExploreViolation?) {
        self.budget = budget
        self.stillFails = stillFails
    }

    /// The smallest program found that still fails, with its violation.
    public mutating func shrink(_ program: ExploreProgram, _ violation: ExploreViolation) async -> (ExploreProgram, ExploreViolation) {
        var best = (program, violation)
        if violation.operation + 1 < program.operations.count {
            var cut = program
            cut.operations = Array(program.operations.prefix(violation.operation + 1))
            if let found = await attempt(cut) { best = found }
        }
        var changed = true
        while changed && budget > 0 {
            changed = false
            if let found = await removeOperations(best.0) { (best, changed) = (found, true) }
            if let found = await removeDevices(best.0) { (best, changed) = (found, true) }
            if let found = await removeUsers(best.0) { (best, changed) = (found, true) }
            if let found = await shortenClockMoves(best.0) { (best, changed) = (found, true) }
        }
        return best
    }

    private mutating func attempt(_ candidate: ExploreProgram) async -> (ExploreProgram, ExploreViolation)? {
        guard budget > 0, !candidate.operations.isEmpty, !candidate.devices.isEmpty else { return nil }
        budget -= 1
        return await stillFails(candidate).map { (candidate, $0) }
    }

    /// Delta debugging (ddmin's complement step): remove chunks of operations, halving the chunk
    /// size while nothing can be removed.
    private mutating func removeOperations(_ program: ExploreProgram) async -> (ExploreProgram, ExploreViolation)? {
        var best: (ExploreProgram, ExploreViolation)?
        var current = program
        var chunk = max(1, current.operations.count / 2)
        while chunk >= 1 && budget > 0 {
            var start = 0
            var removedAny = false
            while start < current.operations.count && budget > 0 {
                var candidate = current
                candidate.operations.removeSubrange(start..<min(start + chunk, current.operations.count))
                if let found = await attempt(candidate) {
                    (current, best, removedAny) = (found.0, found, true)
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        return best
    }

    private mutating func removeDevices(_ program: ExploreProgram) async -> (ExploreProgram, ExploreViolation)? {
        var best: (ExploreProgram, ExploreViolation)?
        var current = program
        for device in program.devices.reversed() where current.devices.count > 1 {
            var candidate = current
            candidate.devices.removeAll { $0.name == device.name }
            candidate.operations.removeAll { $0.device == device.name }
            if let found = await attempt(candidate) { (current, best) = (found.0, found) }
        }
        return best
    }

    private mutating func removeUsers(_ program: ExploreProgram) async -> (ExploreProgram, ExploreViolation)? {
        var best: (ExploreProgram, ExploreViolation)?
        var current = program
        for user in program.users.reversed() where current.users.count > 1 && !current.devices.contains(where: { $0.user == user }) {
            var candidate = current
            candidate.users.removeAll { $0 == user }
            candidate.operations.removeAll { $0.users.contains(user) }
            if let found = await attempt(candidate) { (current, best) = (found.0, found) }
        }
        return best
    }

    /// Each clock move as short as it can be: halved while the program still fails.
    private mutating func shortenClockMoves(_ program: ExploreProgram) async -> (ExploreProgram, ExploreViolation)? {
        var best: (ExploreProgram, ExploreViolation)?
        var current = program
        for index in current.operations.indices {
            while budget > 0, case .advance(let ms) = current.operations[index], ms > 1 {
                var candidate = current
                candidate.operations[index] = .advance(ms: ms / 2)
                guard let found = await attempt(candidate) else { break }
                (current, best) = (found.0, found)
            }
        }
        return best
    }
}
