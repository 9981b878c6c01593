import IMockCommon

/// The client's data directory: the per-user databases and the `lastOnlineUser` file (Z5).
struct ClientDataDirectory: Sendable {
    let path: String

    static let lastOnlineUserFile = "lastOnlineUser"

    /// Creates the directory (and its parents) when missing.
    func create() throws(ClientError) {
        do throws(FileError) {
            try Files.makeDirectories(path)
        } catch {
            throw ClientError(code: MessageDatabase.openFailedCode, message: "cannot create \(path): \(error)")
        }
    }

    /// The last user whose login reached the server, as saved by an earlier run.
    func readLastOnlineUser() -> String? {
        guard let bytes = try? Files.read(path + "/" + Self.lastOnlineUserFile, limit: 64 * 1024) else { return nil }
        let user = String(decoding: bytes, as: UTF8.self)
        return user.isEmpty ? nil : user
    }

    /// Saves `user` (nil removes the file).
    func writeLastOnlineUser(_ user: String?) throws(ClientError) {
        let file = path + "/" + Self.lastOnlineUserFile
        do throws(FileError) {
            if let user {
                try Files.writeAtomically(file, Array(user.utf8))
            } else {
                try Files.remove(file)
            }
        } catch {
            throw ClientError(code: MessageDatabase.openFailedCode, message: "cannot write \(file): \(error)")
        }
    }
}
