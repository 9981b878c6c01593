import IMockCore

/// Registration's password hashes, derived off the loop when the server asks for it
/// (``PasswordWork/offLoop``): the handler's first run checks everything, changes nothing and
/// returns the derivations it needs; the server derives them on its worker threads and runs the
/// handler again with ``PasswordWork/derived(_:)``, which checks everything anew (the directory
/// may have changed meanwhile) and registers with the hashes.
enum PasswordPrework {
    /// The outcome asking for `entries`' hashes, or nil to go on now: hashing inline, the
    /// hashes already derived, or no entry that would be registered (an invalid entry or a
    /// repeated name refuses them all, existing users are only reported; the handler then
    /// answers as usual).
    static func derivationsFirst(_ entries: [NewUser], _ request: RESTRequest, app: RESTApp, directory: Directory)
        -> RESTOutcome?
    {
        guard request.passwords == .offLoop else { return nil }
        // An invalid entry or a name given twice refuses the whole request: nothing to derive.
        var names: [String] = []
        for entry in entries {
            guard let name = try? Directory.validate(entry), !names.contains(name) else { return nil }
            names.append(name)
        }
        let derivations = zip(names, entries).map { name, entry in
            directory.hasUser(name, in: app.key) ? nil : directory.derivation(of: entry.password)
        }
        guard derivations.contains(where: { $0 != nil }) else { return nil }
        return RESTOutcome(deriving: derivations, nowMs: request.nowMs)
    }

    /// `entries` with the hashes derived for them (entry by entry, in the order they were asked
    /// for); unchanged when the request carries none.
    static func withDerivedHashes(_ entries: [NewUser], _ request: RESTRequest) -> [NewUser] {
        guard case .derived(let hashes) = request.passwords, hashes.count == entries.count else { return entries }
        var entries = entries
        for index in entries.indices { entries[index].passwordHash = hashes[index] }
        return entries
    }

    /// The outcome asking for `password`'s hash with `username`'s salt (grant `password`), or nil
    /// to go on now (inline, derived already, or no such user or password: refused as usual).
    static func verificationFirst(
        _ password: String, of username: String, _ request: RESTRequest, app: RESTApp, directory: Directory
    ) -> RESTOutcome? {
        guard request.passwords == .offLoop,
            let stored = (try? directory.user(username, in: app.key))?.passwordHash
        else { return nil }
        return RESTOutcome(deriving: [PasswordDerivation(password: password, checking: stored)], nowMs: request.nowMs)
    }

    /// The outcome asking for a new password's hash (a password change), or nil to go on now.
    static func newPasswordFirst(_ password: String, _ request: RESTRequest, directory: Directory) -> RESTOutcome? {
        guard request.passwords == .offLoop, (try? UserFields.validatePassword(password)) != nil else { return nil }
        return RESTOutcome(deriving: [directory.derivation(of: password)], nowMs: request.nowMs)
    }

    /// The one hash derived for this request, if it carries one.
    static func derivedHash(_ request: RESTRequest) -> PasswordHash? {
        guard case .derived(let hashes) = request.passwords else { return nil }
        return hashes.first ?? nil
    }
}
