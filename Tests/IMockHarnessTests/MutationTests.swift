import IMockHarness
import Testing

extension HarnessTests {
    /// For every fixture, changed expectations — swapped order, a wrong code, a wrong device, a
    /// missing callback — must fail: the matchers can fail.
    @Suite("Mutated expectations fail")
    struct MutationTests {
        @Test("each kind of mutant of each fixture is caught", arguments: catalogueFiles)
        func mutantsFail(file: String) async throws {
            let fixture = try loadFixture(file)
            var applied = 0
            // The four kinds of the issue; a wrong status and a flipped state only for fixtures
            // none of those apply to (REST- or state-only scenarios).
            let primary: [FixtureMutator.Kind] = [.swappedOrder, .wrongCode, .wrongDevice, .missingCallback, .presentWhereAbsent]
            let applicable = primary.filter { !FixtureMutator.mutants(of: fixture, $0).isEmpty }
            for kind in applicable.isEmpty ? [.wrongStatus, .flippedState] : applicable {
                let mutants = FixtureMutator.mutants(of: fixture, kind)
                guard !mutants.isEmpty else { continue }
                applied += 1
                var caught = false
                var survivors: [String] = []
                for mutant in mutants {
                    let result = await run(mutant.fixture)
                    if result.outcome == .failed, result.divergence?.stepPath == mutant.step {
                        caught = true
                        break
                    }
                    survivors.append("\(mutant.step): \(result.outcome)")
                }
                #expect(caught, "\(file): no \(kind.rawValue) mutant failed (\(survivors.joined(separator: "; ")))")
            }
            #expect(applied > 0, "\(file): no mutant applies to its checks")
        }
    }
}
