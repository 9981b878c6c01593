import Foundation

/// The checked-in fuzz seed corpora (Tests/Fuzz/<area>/corpus), so the tests keep them valid.
enum CorpusFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// Every seed of `area` by file name, sorted.
    static func seeds(_ area: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = root.appendingPathComponent(area).appendingPathComponent("corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }
}
