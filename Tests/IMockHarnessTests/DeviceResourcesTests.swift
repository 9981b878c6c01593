import IMockCore
@testable import IMockHarness
import Testing

extension HarnessTests {
    /// ``DeviceResources``: the resource a device logged in under, learned from the server's
    /// `login.ok`, for SDKs that name themselves.
    @Suite("Devices an SDK names itself")
    struct DeviceResourcesTests {
        /// `phone` (ios, alice) and `pad` (android, alice) of app `chat`.
        let devices = try! parseFixture(miniFixture()).devices

        @Test("a login answered under an unknown resource names the device that was logging in as that user")
        func learnsFromTheLogin() {
            var resources = DeviceResources()
            #expect(resources.resource(of: devices[0]) == "ios_phone")
            resources.loginStarted("pad", app: "chat", user: "alice")
            resources.loginStarted("phone", app: "chat", user: "alice")
            resources.loginAnswered(resource: "webim_random_1", app: "chat", user: "alice", devices: devices)
            #expect(resources.resource(of: devices[1]) == "webim_random_1")
            #expect(resources.resource(of: devices[0]) == "ios_phone")
            #expect(resources.device(withResource: "webim_random_1", app: "chat", in: devices) == "pad")
            #expect(resources.device(withResource: "webim_random_1", app: "other", in: devices) == nil)
            // Seen again (a reconnect, or the barrier and the timeline reading one journal): no change.
            resources.loginAnswered(resource: "webim_random_1", app: "chat", user: "alice", devices: devices)
            resources.loginAnswered(resource: "webim_random_2", app: "chat", user: "alice", devices: devices)
            #expect(resources.resource(of: devices[0]) == "webim_random_2")
        }

        @Test("a device answered under its fixture resource, another user's login or another app's, changes nothing")
        func keepsWhatIsKnown() {
            var resources = DeviceResources()
            resources.loginStarted("phone", app: "chat", user: "alice")
            resources.loginAnswered(resource: "ios_phone", app: "chat", user: "alice", devices: devices)
            resources.loginAnswered(resource: "webim_random_3", app: "chat", user: "alice", devices: devices)
            #expect(resources.resource(of: devices[0]) == "ios_phone")
            resources.loginStarted("pad", app: "chat", user: "bob")
            resources.loginAnswered(resource: "webim_random_4", app: "chat", user: "alice", devices: devices)
            resources.loginAnswered(resource: "webim_random_4", app: "other", user: "bob", devices: devices)
            #expect(resources.resource(of: devices[1]) == "android_pad")
        }

        @Test("answers are read in the fixture's words, paths are written in the server's")
        func translates() {
            var resources = DeviceResources()
            resources.loginStarted("phone", app: "chat", user: "alice")
            resources.loginAnswered(resource: "webim_random_5", app: "chat", user: "alice", devices: devices)
            let answer: JSONValue = ["kicked": ["webim_random_5", "android_pad"], "resource": "webim_random_5", "count": 2]
            #expect(resources.inFixtureWords(answer, devices: devices) == ["kicked": ["ios_phone", "android_pad"], "resource": "ios_phone", "count": 2])
            #expect(resources.inServerWords(path: "users/alice/disconnect/ios_phone", devices: devices) == "users/alice/disconnect/webim_random_5")
            #expect(resources.inServerWords(path: "users/ios_phone_x/disconnect", devices: devices) == "users/ios_phone_x/disconnect")
            #expect(DeviceResources().inFixtureWords(answer, devices: devices) == answer)
        }
    }
}
