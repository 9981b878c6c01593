import IMockCore

/// Traps unless `exported` (the export of the directory loaded from `document`) keeps every
/// app and user of the document and every value the document gave: only what it left out may
/// be filled in (uuids, credentials, keys, times, sequences) and plain passwords become hashes.
func checkExportKeeps(_ document: SeedDocument, in exported: SeedDocument) {
    check(exported.apps.count == document.apps.count, "export has \(exported.apps.count) apps, the document \(document.apps.count)")
    for app in document.apps {
        guard let out = exported.apps.first(where: { $0.appKey == app.appKey }) else {
            check(false, "app \(app.appKey) missing from the export")
            return
        }
        let place = "app \(app.appKey)"
        check(out.settings == app.settings, "\(place): settings \(app.settings) exported as \(out.settings)")
        checkKept(app.uuid, out.uuid, "\(place) uuid")
        checkKept(app.clientID, out.clientID, "\(place) clientId")
        checkKept(app.clientSecret, out.clientSecret, "\(place) clientSecret")
        checkKept(app.signingKey, out.signingKey, "\(place) signingKey")
        checkKept(app.nextTokenID, out.nextTokenID, "\(place) nextTokenId")
        check(Set(out.revokedTokenIDs) == Set(app.revokedTokenIDs), "\(place): revoked token ids changed")
        check(out.users.count == app.users.count, "\(place): \(out.users.count) users exported of \(app.users.count)")
        for user in app.users {
            guard let kept = out.users.first(where: { $0.username == user.username }) else {
                check(false, "\(place): user \(user.username) missing from the export")
                return
            }
            checkKept(user, as: kept, "\(place) user \(user.username)")
        }
    }
}

private func checkKept(_ user: SeedUser, as out: SeedUser, _ place: String) {
    checkKept(user.uuid, out.uuid, "\(place) uuid")
    checkKept(user.createdMs, out.createdMs, "\(place) created")
    checkKept(user.modifiedMs, out.modifiedMs, "\(place) modified")
    checkKept(user.sequence, out.sequence, "\(place) sequence")
    checkKept(user.minimumTokenID, out.minimumTokenID, "\(place) minimumTokenId")
    check(out.nickname == user.nickname, "\(place): nickname \(String(describing: user.nickname)) exported as \(String(describing: out.nickname))")
    check(out.activated == user.activated, "\(place): activated changed")
    switch user.password {
    case .hashed(let hash): check(out.password == .hashed(hash), "\(place): password hash changed")
    case .plain: check(out.password != nil, "\(place): plain password lost")
    case nil: check(out.password == nil, "\(place): a password appeared")
    }
}

/// Traps when the document gave `given` and the export holds something else.
private func checkKept<Value: Equatable>(_ given: Value?, _ exported: Value?, _ place: String) {
    guard let given else { return }
    check(exported == given, "\(place): \(given) exported as \(String(describing: exported))")
}
