import IMockCommon

/// Finds the Python baseline, `bench/python_mock.py`, and checks that `python3` can run it.
enum PythonBaseline {
    /// The script given, else `bench/python_mock.py` under the working directory or above the
    /// executable's build directory; nil when absent or when `python3` lacks aiohttp or websockets.
    static func locate(_ given: String?, executable: String) -> String? {
        var candidates = [given ?? "bench/python_mock.py"]
        if given == nil {
            // .build/release/imock → the package root.
            var directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            for _ in 0..<4 where !directory.isEmpty {
                directory = directory.dropLast()
                candidates.append(directory.joined(separator: "/") + "/bench/python_mock.py")
            }
        }
        guard let script = candidates.first(where: { Files.kind($0) == .file }) else { return nil }
        let status = ChildServer.exitStatus(
            of: ["python3", "-c", "import aiohttp, websockets"], logPath: Files.temporaryDirectory + "/imock-bench-python-check.log")
        return status == 0 ? script : nil
    }
}
