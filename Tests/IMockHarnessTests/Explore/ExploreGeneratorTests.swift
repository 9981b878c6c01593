import IMockClient
import IMockCore
import Testing

@testable import IMockHarness

/// The generator and the shrinker, without running anything.
@Suite("Explore generator and shrinker")
struct ExploreGeneratorTests {
    @Test("a seed always gives the same program; neighbouring seeds differ")
    func reproducible() {
        let generator = ExploreGenerator(profile: .easemob, steps: 12)
        #expect(generator.program(seed: 42) == generator.program(seed: 42))
        #expect(generator.program(seed: 42) != generator.program(seed: 43))
    }

    @Test("programs are valid fixtures of 1–3 users and 1–4 devices each, in every profile")
    func validFixtures() throws {
        for profile in SDKProfile.allCases {
            let generator = ExploreGenerator(profile: profile, steps: 20)
            for seed in UInt64(0)..<200 {
                let program = generator.program(seed: seed)
                #expect((1...3).contains(program.users.count))
                for user in program.users {
                    #expect((1...4).contains(program.devices.filter { $0.user == user }.count))
                }
                #expect(program.operations.count >= 20)
                #expect(SessionProperties.endsQuiet(program), "seed \(seed): the closing quiet period")
                let fixture = try program.fixture()
                #expect(fixture.steps.count == program.operations.count + 1)
                #expect(fixture.devices.allSatisfy { $0.profile == profile })
                let codes = program.operations.compactMap { operation -> Int? in
                    if case .kick(_, _, let code) = operation { return code } else { return nil }
                }
                #expect(codes.allSatisfy(ExploreGenerator.kickCodes.contains))
            }
        }
    }

    @Test("the generator reaches every kind of operation and the interleavings it is weighted toward")
    func coverage() {
        let generator = ExploreGenerator(profile: .easemob, steps: 12)
        var kinds: Set<String> = []
        var blackholedLogins = 0
        for seed in UInt64(0)..<300 {
            let operations = generator.program(seed: seed).operations
            for (index, operation) in operations.enumerated() {
                kinds.insert(String(describing: operation).prefix { $0 != "(" }.description)
                if case .login(let device, _) = operation, index > 0, operations[index - 1] == .network(.blackhole, device: device) {
                    blackholedLogins += 1
                }
            }
        }
        let expected = ["login", "logout", "send", "renewToken", "changePassword", "deleteUser", "deactivate", "activate", "disconnect", "kick", "expireToken", "network", "advance"]
        #expect(Set(expected).isSubset(of: kinds), "\(kinds)")
        #expect(blackholedLogins > 20)
    }

    @Test("a run's timeline reads back as a trace: steps as operations, journal summaries as frames, why it stopped")
    func traceFromTimeline() {
        let program = ExploreProgram(
            profile: .easemob, policy: ["vendor": "easemob"], users: ["u1"], devices: [ExploreDevice(name: "d1", user: "u1", platform: "ios")],
            operations: [.login(device: "d1", ttlSeconds: nil), .kick(user: "u1", device: "d1", code: 217)])
        let callback = ObservedCallback(
            sequence: 1, device: "d1", name: "connectionStateDidChange", arguments: [CallbackArgument("state", "connected")], timeMs: 5, stepIndex: 0)
        var result = ScenarioResult(
            file: "x", name: "x", rules: [], devices: ["d1"], outcome: .failed, note: nil,
            divergence: Divergence(stepIndex: 1, stepPath: "steps[1]", stepSummary: "control kick d1 217",
                                   failure: ScenarioFailure("POST /_imock/apps/a/b/kick answered 404, expected 200"), atMs: 9),
            timeline: [
                .step(index: 0, path: "steps[0]", summary: "login", device: "d1", atMs: 0), .callback(callback),
                .server(device: "d1", resource: "ios_d1", summary: "kicked code=217 by=null", atMs: 7),
                .server(device: "d1", resource: "ios_d1", summary: "close 4217", atMs: 7), .step(index: 2, path: "steps[2]", summary: "check", device: nil, atMs: 9),
            ],
            startMs: 0, virtualMs: 9, wallMs: 1)
        let steps = [0: 0, 1: 1]
        let trace = ExploreTrace(result: result, program: program, operationOfStep: steps)
        #expect(trace.events.count == 4 && trace.completedOperations == 1 && trace.stoppedOnMissingTarget)
        guard case .server("d1", "kicked", 217?, 7) = trace.events[2], case .server("d1", "closed", 4217?, 7) = trace.events[3],
            case .callback(_, .connected) = trace.events[1]
        else {
            Issue.record("\(trace.events)")
            return
        }
        result.outcome = .skipped
        result.divergence = nil
        result.note = "adapter py does not support renewToken (steps[5])"
        let skipped = ExploreTrace(result: result, program: program, operationOfStep: steps)
        #expect(skipped.completedOperations == 0 && skipped.unsupportedCommand == "renewToken")
    }

    @Test("the shrinker keeps only what the failure needs: fewer steps, devices, users, shorter clock moves")
    func shrinks() async {
        let program = ExploreProgram(
            profile: .easemob, policy: ["vendor": "easemob"], users: ["u1", "u2", "u3"],
            devices: [
                ExploreDevice(name: "d1", user: "u1", platform: "ios"), ExploreDevice(name: "d2", user: "u2", platform: "ios"),
                ExploreDevice(name: "d3", user: "u3", platform: "web"),
            ],
            operations: [
                .login(device: "d2", ttlSeconds: nil), .login(device: "d1", ttlSeconds: nil), .send(device: "d2", to: "u3", text: "m1"),
                .advance(ms: 70_000), .kick(user: "u1", device: "d1", code: 217), .logout(device: "d3"), .advance(ms: 900_000),
                .changePassword(user: "u2"),
            ])
        // "Fails" while d1 logs in, is kicked, and at least a minute passes after the kick.
        let fails: (ExploreProgram) -> Bool = { candidate in
            guard let login = candidate.operations.firstIndex(of: .login(device: "d1", ttlSeconds: nil)),
                let kick = candidate.operations.firstIndex(where: { if case .kick = $0 { return true } else { return false } }), login < kick
            else { return false }
            let waited = candidate.operations[kick...].reduce(Int64(0)) { sum, operation in
                if case .advance(let ms) = operation { return sum + ms } else { return sum }
            }
            return waited >= 60_000
        }
        let violation = ExploreViolation(device: "d1", message: "x", operation: 6, witness: .connected)
        var shrinker = ExploreShrinker { candidate in fails(candidate) ? violation : nil }
        let (small, _) = await shrinker.shrink(program, violation)
        #expect(small.operations.count == 3, "\(small.operations)")
        #expect(small.devices.map(\.name) == ["d1"])
        #expect(small.users == ["u1"])
        let move = small.operations.compactMap { operation -> Int64? in if case .advance(let ms) = operation { return ms } else { return nil } }
        #expect(move.count == 1 && move[0] >= 60_000 && move[0] < 120_000, "\(move)")
    }
}
