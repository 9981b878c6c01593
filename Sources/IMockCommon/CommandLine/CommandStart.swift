/// The start every `imock` command shares: `--help` or `-h` anywhere prints the help on
/// standard output and exits 0; a usage error prints `imock <command>: <reason>`, a blank line
/// and the help on standard error and exits 64; otherwise the command runs with its options.
public enum CommandStart {
    /// Parses with `parse`, then returns `body`'s exit status (or 0 / 64 as above).
    public static func run<Options>(
        _ command: String, arguments: [String], help: String, parse: () throws(UsageError) -> Options,
        _ body: (Options) -> Int32
    ) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(help)
            return 0
        }
        let options: Options
        do throws(UsageError) {
            options = try parse()
        } catch {
            StandardError.write("imock \(command): \(error)\n\n\(help)")
            return UsageError.exitCode
        }
        return body(options)
    }
}
