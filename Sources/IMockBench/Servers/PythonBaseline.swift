import Foundation

/// Finds the Python baseline, `bench/python_mock.py`, and checks that `python3` can run it.
enum PythonBaseline {
    /// The script given, else `bench/python_mock.py` under the working directory or above the
    /// executable's build directory; nil when absent or when `python3` lacks aiohttp or websockets.
    static func locate(_ given: String?, executable: String) -> String? {
        var candidates = [given ?? "bench/python_mock.py"]
        if given == nil {
            // .build/release/imock → the package root.
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<4 {
                directory.deleteLastPathComponent()
                candidates.append(directory.path + "/bench/python_mock.py")
            }
        }
        guard let script = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return nil }
        let status = ChildServer.exitStatus(
            of: ["python3", "-c", "import aiohttp, websockets"], logPath: NSTemporaryDirectory() + "imock-bench-python-check.log")
        return status == 0 ? script : nil
    }
}
