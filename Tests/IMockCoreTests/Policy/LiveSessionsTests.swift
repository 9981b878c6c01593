import IMockCommon
@testable import IMockCore
import Testing

/// The index of `LiveSessions` (used above 32 sessions of one user) answers exactly what a scan
/// of the sessions answers, through random logins and ends, and every policy decides the same
/// with and without it.
@Suite struct LiveSessionsTests {
    private static let platforms: [DevicePlatform] = [
        .easemob(.ios), .easemob(.android), .easemob(.web), .easemob(.windows), .easemob(.custom(7)),
        .openIM(.ios), .openIM(.android), .openIM(.windows), .openIM(.web), .openIM(.admin), .openIM(.iPad),
    ]

    /// A random device: few resources and UUIDs, so that same-resource and same-device cases occur.
    private static func device(_ random: inout SplitMix64, at time: Int64) throws -> LoginDevice {
        let platform = platforms[Int(random.next() % UInt64(platforms.count))]
        let uuid = "u\(random.next() % 6)"
        let resource = random.next() % 3 == 0 ? "r\(random.next() % 4)" : nil
        return try LoginDevice(
            platform: platform, uuid: uuid, resource: resource, loginTimeMs: time, tokenID: random.next() % 3)
    }

    @Test("the index reads what a scan reads, through random inserts and removals", arguments: [1, 2, 3, 4])
    func indexMatchesScan(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var indexed = LiveSessions([], indexThreshold: 0)
        var reference: [LiveSession] = []
        var nextID: UInt64 = 1
        var time: Int64 = 1000
        for _ in 0..<600 {
            if reference.isEmpty || random.next() % 5 < 3 {
                // Now and then a login time before the latest (a wall clock that stepped back).
                time += random.next() % 10 == 0 ? -3 : Int64(random.next() % 2)
                let session = LiveSession(id: SessionID(rawValue: nextID), device: try Self.device(&random, at: time))
                nextID += 1
                indexed.insert(session)
                reference.append(session)
            } else {
                let victim = reference[Int(random.next() % UInt64(reference.count))]
                #expect(indexed.remove(victim.id) == victim)
                reference.removeAll { $0.id == victim.id }
            }
            let ordered = reference.sorted(by: LiveSessions.precedes)
            #expect(indexed.count == ordered.count)
            #expect(indexed.all == ordered)
            for resource in ["r0", "r1", "ios_u1", "web_u2", "ios_u3"] {
                #expect(indexed.sessions(withResource: resource) == ordered.filter { $0.device.resource == resource })
            }
            for platform in Self.platforms {
                let bucket = try LoginDevice(platform: platform, uuid: "x", loginTimeMs: 0, tokenID: 0).bucket
                let inBucket = ordered.filter { $0.device.bucket == bucket }
                #expect(indexed.count(in: bucket) == inBucket.count)
                #expect(indexed.sessions(inBuckets: { $0 == bucket }, limit: 2) == Array(inBucket.prefix(2)))
            }
            #expect(indexed.sessions(inBuckets: \.isEasemob, where: { $0.device.tokenID != 1 })
                == ordered.filter { $0.device.bucket.isEasemob && $0.device.tokenID != 1 })
            #expect(indexed.count(inBuckets: { !$0.isEasemob }) == ordered.filter { !$0.device.bucket.isEasemob }.count)
            #expect(indexed.latest { $0.device.bucket.isEasemob } == ordered.last { $0.device.bucket.isEasemob })
        }
        #expect(!LiveSessions([]).isIndexed)
    }

    @Test("a user's sessions are indexed above the threshold and no longer once few are left")
    func threshold() throws {
        var sessions = LiveSessions()
        for id in 1...UInt64(LiveSessions.indexThreshold + 1) {
            let device = try LoginDevice(platform: .easemob(.web), uuid: "d\(id)", loginTimeMs: 1, tokenID: 1)
            sessions.insert(LiveSession(id: SessionID(rawValue: id), device: device))
        }
        #expect(sessions.isIndexed)
        for id in 1...UInt64(LiveSessions.indexThreshold / 2 + 1) { sessions.remove(SessionID(rawValue: id)) }
        #expect(!sessions.isIndexed)
        #expect(sessions.count == LiveSessions.indexThreshold / 2)
    }

    @Test(
        "every policy decides the same with the index as with scans",
        arguments: [
            LoginPolicy.easemobDefault,
            .easemob(EasemobLoginPolicy(mode: .multiDevice(try! EasemobDeviceLimits(defaultLimit: 40)))),
            .easemob(EasemobLoginPolicy(mode: .multiDevice(try! EasemobDeviceLimits(defaultLimit: 60)), keepCurrentDevice: true)),
            .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld), keepCurrentDevice: true)),
            .easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins))),
            .openIM(.defaultNotKick), .openIM(.allLoginButSameTermKick), .openIM(.allLoginButSameClassKick),
            .openIM(.pcAndOther),
        ])
    func policiesAgree(policy: LoginPolicy) throws {
        var random = SplitMix64(seed: 7)
        let engine = LoginPolicyEngine(policy: policy)
        // Many sessions (of both families, as after a change of policy), then many attempts.
        var live: [LiveSession] = []
        for id in 1...UInt64(80) {
            live.append(LiveSession(id: SessionID(rawValue: id), device: try Self.device(&random, at: Int64(id / 3))))
        }
        let indexed = LiveSessions(live, indexThreshold: 0)
        let scanned = LiveSessions(live, indexThreshold: .max)
        #expect(indexed.isIndexed && !scanned.isIndexed)
        for step in 0..<300 {
            let attempt = LoginAttempt(
                device: try Self.device(&random, at: 100), isAutoLogin: step % 2 == 0,
                lastLoginDevice: step % 3 == 0 ? live[step % live.count].device.identity : nil)
            let viaIndex = Result { () throws(LoginPolicyError) in try engine.decide(attempt, liveSessions: indexed) }
            let viaScan = Result { () throws(LoginPolicyError) in try engine.decide(attempt, liveSessions: scanned) }
            #expect(viaIndex == viaScan)
        }
    }
}
