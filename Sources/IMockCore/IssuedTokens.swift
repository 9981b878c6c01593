import IMockCommon

/// Why a token was revoked individually.
public enum TokenRevocationReason: String, Sendable, Equatable {
    /// Revoked by the control API (or any caller that does not say otherwise).
    case revoked
    /// Its session was kicked by a policy that invalidates the kicked token (OpenIM).
    case kicked
}

/// What a recorded token is worth at a given time; computed, never stored.
public enum IssuedTokenState: String, Sendable, Equatable, CaseIterable {
    /// Accepted by verification.
    case live
    /// Past its expiry (and not revoked).
    case expired
    /// Revoked by id, by a password change, by revoking all of the user's tokens, or because
    /// its user no longer exists (or was re-created).
    case revoked
    /// Revoked because its session was kicked.
    case kicked
}

/// One issued token as the app remembers it: never the token itself, only a display prefix.
public struct IssuedTokenRecord: Sendable, Equatable {
    /// The token id (`jti`), ascending in issue order within an app.
    public let id: UInt64
    /// App or user token.
    public let kind: TokenKind
    /// The username of a user token; nil for an app token.
    public let subject: String?
    /// Issue time, epoch ms.
    public let issuedAtMs: Int64
    /// Expiry, epoch ms; nil = never expires.
    public let expiresAtMs: Int64?
    /// ``tokenPrefix(_:)`` of the token: `YWMt…` and its last 8 characters.
    public let prefix: String
    /// Set when the token was revoked by id; the first reason given is kept.
    public internal(set) var revocation: TokenRevocationReason?
    /// The OpenIM platform an OpenIM token is bound to; nil for a `YWMt` token.
    public let platformID: Int?

    /// Creates a record of a token just issued.
    public init(claims: TokenClaims, token: String) {
        id = claims.tokenID
        kind = claims.kind
        subject = claims.kind == .user ? claims.subject : nil
        issuedAtMs = claims.issuedAtMs
        expiresAtMs = claims.expiresAtMs
        prefix = tokenPrefix(token)
        platformID = claims.platformID
    }
}

/// The bounded list of an app's most recently issued tokens, oldest first.
///
/// Holds at most ``capacity`` records; recording one more drops the oldest, so memory stays
/// bounded however many tokens a long run issues (a record is about 100 bytes, so the default
/// 100,000 is about 10 MB per app at most). Verification consults it only to tell a kicked
/// token from a revoked one (``TokenError/kicked``); otherwise it serves inspection. It is not part of seeds: a restore or reset starts with an empty list.
public struct IssuedTokens: Sendable {
    /// The default bound per app.
    public static let defaultCapacity = 100_000

    /// The most records kept.
    public let capacity: Int
    /// `storage[start...]` are the kept records; the dropped prefix is compacted away lazily.
    private var storage: [IssuedTokenRecord] = []
    private var start = 0

    /// An empty list keeping at most `capacity` records (at least 1).
    public init(capacity: Int = IssuedTokens.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The number of records kept.
    public var count: Int { storage.count - start }

    /// The kept records, oldest (lowest id) first.
    public var records: ArraySlice<IssuedTokenRecord> { storage[start...] }

    /// Appends the record of a token just issued, dropping the oldest when full. Ids must
    /// ascend (they do: an app issues ids in order).
    mutating func record(_ record: IssuedTokenRecord) {
        storage.append(record)
        if count > capacity { start += 1 }
        // Compact once the dropped prefix is as long as the kept part: amortized O(1).
        if start > 0, start >= count {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// The kept record with `id`, if any.
    public func record(id: UInt64) -> IssuedTokenRecord? {
        index(of: id).map { storage[$0] }
    }

    /// Marks the record `id` revoked for `reason` unless it already was; false when no record
    /// with that id is kept.
    @discardableResult
    mutating func markRevoked(id: UInt64, reason: TokenRevocationReason) -> Bool {
        guard let index = index(of: id) else { return false }
        if storage[index].revocation == nil { storage[index].revocation = reason }
        return true
    }

    /// Binary search over the kept records (ids ascend).
    private func index(of id: UInt64) -> Int? {
        let low = storage[start...].partitioningIndex { $0.id >= id }
        return low < storage.count && storage[low].id == id ? low : nil
    }
}

extension IssuedTokens: Equatable {
    /// Equal when they keep the same records under the same bound.
    public static func == (lhs: IssuedTokens, rhs: IssuedTokens) -> Bool {
        lhs.capacity == rhs.capacity && lhs.records.elementsEqual(rhs.records)
    }
}

/// A recorded token with its state at the time asked.
public struct IssuedTokenStatus: Sendable, Equatable {
    /// The record.
    public var record: IssuedTokenRecord
    /// Its state at that time.
    public var state: IssuedTokenState
}

extension App {
    /// The state of `record` at `nowMs`, by the same rules as verification: `kicked` or
    /// `revoked` first (a revoked token stays revoked after its expiry), then `expired`
    /// (`nowMs ≥ expiresAtMs`), else `live`.
    public func state(of record: IssuedTokenRecord, nowMs: Int64) -> IssuedTokenState {
        if record.revocation == .kicked { return .kicked }
        if record.revocation == .revoked || revokedTokenSerials.contains(record.id) { return .revoked }
        switch record.kind {
        case .app:
            break  // An app token's subject is the app's client id, which never changes.
        case .user:
            guard let subject = record.subject, let user = users[subject], record.id >= user.minimumTokenSerial else {
                return .revoked
            }
        }
        if let expiry = record.expiresAtMs, nowMs >= expiry { return .expired }
        return .live
    }

    /// The kept token records, newest first, with their state at `nowMs`; `user` keeps only
    /// that user's tokens (a canonical username), `state` only tokens in that state.
    public func issuedTokenStatuses(user: String? = nil, state wanted: IssuedTokenState? = nil, nowMs: Int64)
        -> [IssuedTokenStatus]
    {
        var result: [IssuedTokenStatus] = []
        for record in issuedTokens.records.reversed() {
            if let user, record.kind != .user || record.subject != user { continue }
            let state = state(of: record, nowMs: nowMs)
            if let wanted, state != wanted { continue }
            result.append(IssuedTokenStatus(record: record, state: state))
        }
        return result
    }
}
