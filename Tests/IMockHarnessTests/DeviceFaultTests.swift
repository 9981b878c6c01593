import IMockHarness
import Testing

extension HarnessTests {
    /// Faults aimed at a fixture device by name.
    @Suite("Faults on devices")
    struct DeviceFaultTests {
        @Test("a fault aimed at a device before its login is kept and applies from its login (docs/CONTROL-API.md § Faults)")
        func beforeLogin() async throws {
            let fixture = try parseFixture(miniFixture(steps: """
                [{"control": "fault", "kind": "failUnbind", "device": "phone", "status": 200, "response": {"affected": []}},
                 {"do": "login", "device": "phone", "result": {"error": null}},
                 {"do": "login", "device": "pad", "result": {"error": null}},
                 {"do": "logout", "device": "pad", "unbind": true, "result": {"error": null}},
                 {"do": "logout", "device": "phone", "unbind": true, "result": {"error": {"code": 212}}}]
                """))
            let result = await run(fixture)
            #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
        }
    }
}
