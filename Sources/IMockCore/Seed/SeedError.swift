/// Why a seed document was refused: the JSON path of the offending value and what is wrong
/// with it, e.g. `apps[1].users[3].username: username [A B] is not legal`.
public struct SeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is: `version`, `apps[0].clientId`, `apps[1].users[3].username` …;
    /// empty when the document as a whole is at fault (not JSON, not an object).
    public var path: String
    /// What is wrong, in words.
    public var message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or just the message for the whole document.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension SeedError {
    /// Words for a domain validation error, reported under `path`.
    static func domain(_ error: DirectoryError, at path: String) -> SeedError {
        SeedError(path: path, message: describe(error))
    }

    static func describe(_ error: DirectoryError) -> String {
        switch error {
        case .invalidOrgName(let name): "org name [\(name)] is not legal"
        case .invalidAppName(let name): "app name [\(name)] is not legal"
        case .invalidAppKey(let key): "app key [\(key)] is not of the form org#app"
        case .illegalUsername(let name): "username [\(name)] is not legal"
        case .usernameTooLong: "username is longer than \(UserFields.maximumUsernameLength) bytes"
        case .passwordMissing: "password must not be empty"
        case .passwordTooLong: "password is longer than \(UserFields.maximumPasswordLength) characters"
        case .nicknameTooLong: "nickname is longer than \(UserFields.maximumNicknameLength) characters"
        case .invalidSettings(let text), .invalidCredentials(let text): text
        default: "\(error)"
        }
    }
}
