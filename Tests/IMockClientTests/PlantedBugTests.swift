import IMockCore
import Testing

@testable import IMockClient

/// The bug `imock explore`'s tests plant (docs/EXPLORE.md § In `swift test`): only the planted
/// code is taken for a drop, by its frame or by its close alone; every other kick still ends the session.
@Suite("Planted client bug")
struct PlantedBugTests {
    static func planted() throws -> Driver {
        var driver = try Driver(profile: .easemob)
        var options = driver.machine.options
        options.plantedBug = .reconnectAfterKick(code: 217)
        driver.machine = ClientStateMachine(options: options, lastOnlineUser: nil)
        driver.loginOnline()
        return driver
    }

    @Test("a 217 kick (frame or close) is taken for a drop: still logged in, the reconnect timer set")
    func reconnectsAfter217() throws {
        for input in [ClientEvent.serverSaid(generation: 1, .end(.kicked(code: 217, reason: "r", by: nil))),
                      .socketClosed(generation: 1, sessionEndCode: 217, reason: "r")] {
            var driver = try Self.planted()
            let dropped = driver.on(input)
            #expect(Driver.callbacks(in: dropped) == [#"connectionStateDidChange(state: "disconnected")"#])
            #expect(dropped.contains { if case .scheduleTimer(.reconnect, _) = $0 { true } else { false } })
            #expect(driver.machine.loginStatus == .logged)
        }
    }

    @Test("another code still ends the session without a reconnect")
    func otherCodesEnd() throws {
        var driver = try Self.planted()
        let kicked = driver.on(.serverSaid(generation: 1, .end(.kicked(code: 216, reason: "r", by: nil))))
        #expect(Driver.callbacks(in: kicked).last == "userAccountDidForcedToLogout(code: 216)")
        #expect(driver.machine.loginStatus == .logout)
        #expect(try Driver(profile: .easemob).machine.options.plantedBug == nil)
    }
}
