#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `imock bench`: parses its options, runs the benchmark and prints one line per figure.
public enum BenchCommand {
    /// Runs `imock bench` with the arguments after `bench`; returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(BenchOptions.usage)
            return 0
        }
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(arguments)
        } catch {
            writeError("imock bench: \(error)\n\n\(BenchOptions.usage)")
            return UsageError.exitCode
        }
        do {
            let report = try Benchmark.runBlocking(options)
            for line in report.lines { print(line) }
            return 0
        } catch {
            writeError("imock bench: \(error)")
            return 1
        }
    }

    private static func writeError(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}
