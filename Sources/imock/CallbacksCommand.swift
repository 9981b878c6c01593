import IMockClient
import IMockCommon
import IMockCore

/// `imock callbacks`: the callback schema of every profile (docs/FIXTURES.md § Callback schema),
/// generated from the profile tables: what an adapter reports and fixtures match. Exit 0, 64 for
/// bad usage.
enum CallbacksCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "callbacks", arguments: arguments, help: CallbacksOptions.spec.help,
            parse: { () throws(UsageError) in try CallbacksOptions.parse(arguments, environment: environment) }
        ) { options in
            let schema = CallbackSchema.json()
            guard let profile = options.profile else {
                print(schema.prettyString, terminator: "")
                return 0
            }
            print(schema["profiles"]?[profile.rawValue]?.prettyString ?? "", terminator: "")
            return 0
        }
    }
}

/// The command line of `imock callbacks`.
struct CallbacksOptions: Sendable {
    /// One profile only; nil: the whole schema.
    var profile: SDKProfile?

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> CallbacksOptions {
        try spec.parse(arguments, environment: environment, defaults: CallbacksOptions()).0
    }

    /// `imock callbacks`' options, declared once for parsing and `--help`.
    static let spec = CommandLineSpec<CallbacksOptions>(
        name: "callbacks",
        summary: """
            Prints, as JSON, every callback each profile reports and the arguments each carries (names, JSON types, \
            fixed values), generated from the profile tables: what an adapter must report for fixtures to match. \
            docs/callbacks.json is this output.
            """,
        options: [
            CommandLineOption(
                "--profile", "<easemob|openim|zim>", help: "Only this profile's callbacks (default: the whole schema)."
            ) { options, value throws(UsageError) in
                guard let profile = SDKProfile(rawValue: value) else {
                    throw UsageError("--profile: '\(value)' is not one of easemob, openim, zim")
                }
                options.profile = profile
            },
        ])
}
