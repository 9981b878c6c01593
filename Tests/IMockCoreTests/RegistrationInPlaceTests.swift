import Testing

@testable import IMockCore

/// Registration changes the app in place (its user table is never copied) and stays all or
/// nothing when the user sequences run out part way through a batch.
@Suite("Registration in place")
struct RegistrationInPlaceTests {
    @Test("a batch that would run out of user sequences part way creates nobody")
    func batchIsAllOrNothing() throws {
        var (directory, key, _) = try makeDirectory()
        directory.apps[key]!.nextUserSequence = ValueLimits.maximumCounter - 1  // two left
        let before = directory
        let three = (1...3).map { NewUser(username: "u\($0)", password: "p") }
        #expect(directoryError { _ = try directory.registerBatch(three, in: key, nowMs: 1) } == .countersExhausted("user sequence"))
        #expect(directory == before)
        // Two fit; then none is left, and users that exist take none.
        let two = Array(three.prefix(2))
        #expect(try directory.registerBatch(two, in: key, nowMs: 2).created.map(\.username) == ["u1", "u2"])
        let again = try directory.registerBatch(two, in: key, nowMs: 3)
        #expect(again.existing == ["u1", "u2"] && again.created.isEmpty)
        #expect(directoryError { try directory.registerUser(NewUser(username: "u3", password: "p"), in: key, nowMs: 3) }
            == .countersExhausted("user sequence"))
    }

    @Test("passwordless (OpenIM) registration is all or nothing too")
    func passwordlessIsAllOrNothing() throws {
        var (directory, key, _) = try makeDirectory()
        directory.apps[key]!.nextUserSequence = ValueLimits.maximumCounter  // one left
        let before = directory
        #expect(directoryError {
            try directory.registerPasswordlessUsers([("a", nil), ("b", nil)], in: key, nowMs: 1)
        } == .countersExhausted("user sequence"))
        #expect(directory == before)
        #expect(try directory.registerPasswordlessUsers([("a", nil)], in: key, nowMs: 1).map(\.username) == ["a"])
    }

    @Test("ten thousand users registered one by one, then deleted, keep their order and lookups")
    func manyUsersOneByOne() throws {
        var (directory, key, _) = try makeDirectory()
        for index in 0..<10_000 {
            try directory.registerUser(NewUser(username: "user\(index)", password: "p"), in: key, nowMs: Int64(index))
        }
        for index in stride(from: 0, to: 10_000, by: 2) { try directory.deleteUser("user\(index)", in: key) }
        let app = try directory.app(key)
        #expect(app.users.count == 5_000)
        #expect(app.orderedUsernames.first == "user1" && app.orderedUsernames.last == "user9999")
        #expect(try directory.user("user4321", in: key).sequence == 4_322)
    }
}
