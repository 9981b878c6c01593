import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the value is released.
final class ScratchDirectory {
    /// The directory's path.
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "imock-store-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}
