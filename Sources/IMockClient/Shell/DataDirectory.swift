import FoundationEssentials

/// The client's data directory: the per-user databases and the `lastOnlineUser` file (Z5).
struct DataDirectory: Sendable {
    let path: String

    static let lastOnlineUserFile = "lastOnlineUser"

    /// Creates the directory (and its parents) when missing.
    func create() throws(ClientError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ClientError(code: MessageDatabase.openFailedCode, message: "cannot create \(path): \(error)")
        }
    }

    /// The last user whose login reached the server, as saved by an earlier run.
    func readLastOnlineUser() -> String? {
        let url = URL(fileURLWithPath: path + "/" + Self.lastOnlineUserFile)
        guard let data = try? Data(contentsOf: url) else { return nil }
        let user = String(decoding: data, as: UTF8.self)
        return user.isEmpty ? nil : user
    }

    /// Saves `user` (nil removes the file).
    func writeLastOnlineUser(_ user: String?) throws(ClientError) {
        let file = path + "/" + Self.lastOnlineUserFile
        do {
            if let user {
                try Data(user.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            } else if FileManager.default.fileExists(atPath: file) {
                try FileManager.default.removeItem(atPath: file)
            }
        } catch {
            throw ClientError(code: MessageDatabase.openFailedCode, message: "cannot write \(file): \(error)")
        }
    }
}
