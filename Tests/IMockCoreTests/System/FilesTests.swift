import IMockCommon
import Testing

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The POSIX file helpers that replace Foundation in imock.
@Suite("Files")
struct FilesTests {
    /// A fresh directory under /tmp, removed by the caller with ``removeTree(_:)``.
    static func scratch() throws -> String {
        var template = Array("/tmp/imock-files-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let path = try #require(made.map { String(cString: $0) })
        return path
    }

    static func removeTree(_ path: String) {
        try? Files.removeTree(path)
    }

    @Test("write atomically, read back, replace, remove (twice)")
    func roundTrip() throws {
        let directory = try Self.scratch()
        defer { Self.removeTree(directory) }
        let file = directory + "/a.txt"
        try Files.writeAtomically(file, Array("one".utf8))
        #expect(try Files.read(file) == Array("one".utf8))
        try Files.writeAtomically(file, Array("two, longer".utf8))
        #expect(try Files.read(file) == Array("two, longer".utf8))
        #expect(Files.kind(file) == .file)
        #expect(try Files.filesBelow(directory) == ["a.txt"], "no temporary file is left behind")
        try Files.remove(file)
        try Files.remove(file)
        #expect(Files.kind(file) == nil)
    }

    @Test("reading refuses a missing file and one over the limit, naming the path")
    func readErrors() throws {
        let directory = try Self.scratch()
        defer { Self.removeTree(directory) }
        #expect(throws: FileError.self) { try Files.read(directory + "/missing") }
        try Files.writeAtomically(directory + "/big", [UInt8](repeating: 7, count: 100))
        let error = #expect(throws: FileError.self) { try Files.read(directory + "/big", limit: 99) }
        #expect(error?.description.contains("big") == true)
        #expect(try Files.read(directory + "/big", limit: 100).count == 100)
    }

    @Test("makeDirectories creates parents, accepts existing ones, refuses a file in the way")
    func directories() throws {
        let directory = try Self.scratch()
        defer { Self.removeTree(directory) }
        try Files.makeDirectories(directory + "/x/y/z")
        try Files.makeDirectories(directory + "/x/y/z")
        #expect(Files.kind(directory + "/x/y/z") == .directory)
        try Files.writeAtomically(directory + "/file", [1])
        #expect(throws: FileError.self) { try Files.makeDirectories(directory + "/file/sub") }
    }

    @Test("filesBelow lists regular files recursively, sorted, without hidden entries")
    func listing() throws {
        let directory = try Self.scratch()
        defer { Self.removeTree(directory) }
        for path in ["b.json", "a/z.json", "a/b/c.json", ".hidden/x.json", "a/.dot.json"] {
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            if !parent.isEmpty { try Files.makeDirectories(directory + "/" + parent) }
            try Files.writeAtomically(directory + "/" + path, [])
        }
        #expect(try Files.filesBelow(directory) == ["a/b/c.json", "a/z.json", "b.json"])
        #expect(throws: FileError.self) { try Files.filesBelow(directory + "/none") }
    }

    @Test("removeTree removes a directory with files, hidden entries and a link, not the link's target; entries lists every name")
    func removingTrees() throws {
        let directory = try Self.scratch()
        defer { Self.removeTree(directory) }
        let outside = directory + "/outside.txt"
        try Files.writeAtomically(outside, [1])
        let tree = directory + "/tree"
        try Files.makeDirectories(tree + "/a/b")
        for path in ["x", "a/.hidden", "a/b/y"] { try Files.writeAtomically(tree + "/" + path, [2]) }
        #expect(symlink(outside, tree + "/a/link") == 0)
        #expect(Files.entries(of: tree + "/a") == [".hidden", "b", "link"])
        #expect(Files.linkTarget(tree + "/a/link") == outside)
        try Files.removeTree(tree)
        #expect(Files.kind(tree) == nil)
        #expect(Files.kind(outside) == .file, "a link is removed, not followed")
        try Files.removeTree(tree)
        try Files.removeTree(outside)
        #expect(Files.kind(outside) == nil)
        #expect(Files.entries(of: tree) == nil)
    }

    @Test("DecimalText.fixed rounds to the given decimals", arguments: [
        (0.4567, 2, "0.46"), (12.0, 3, "12.000"), (-1.5, 0, "-2"), (0.0005, 3, "0.001"), (-0.25, 1, "-0.3"),
        (1234567.891, 2, "1234567.89"),
    ])
    func decimals(value: Double, digits: Int, text: String) {
        #expect(DecimalText.fixed(value, digits: digits) == text)
    }

    @Test("DecimalText.fixed can round down (metrics seconds)")
    func roundingDown() {
        #expect(DecimalText.fixed(12.3459, digits: 3, rule: .down) == "12.345")
    }

    @Test("SpawnedProcess pipes stdin to stdout and reports the exit status")
    func spawn() throws {
        let child = try SpawnedProcess.spawn("sh", ["-c", "cat; exit 3"], stdin: .pipe, stdout: .pipe, stderr: .null)
        #expect(child.write("hello\n"))
        child.closeStdin()
        #expect(readAll(child.stdout!) == Array("hello\n".utf8))
        #expect(child.wait() == .exited(3))
    }
}
