#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon

/// The process environment as a dictionary (without Foundation's ProcessInfo).
enum ProcessEnvironment {
    static func variables() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return result
    }

    /// This executable (`/proc/self/exe`), else the name it was started by: what `imock exec`
    /// and a crash-restart soak start as their `imock serve` child.
    static var executablePath: String { Files.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0] }
}
