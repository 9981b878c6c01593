// Initializers that rebuild domain values from stored fields (a seed, an export) instead of
// generating them; only the seed loader uses them.

extension App {
    /// An app with the given identity and credentials and no users.
    init(
        key: AppKey, uuid: String, settings: AppSettings, clientID: String, clientSecret: String, signingKey: [UInt8]
    ) {
        self.key = key
        self.uuid = uuid
        self.settings = settings
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.signingKey = signingKey
    }
}

extension PasswordHash {
    /// A stored hash, as exported.
    init(iterations: Int, salt: [UInt8], digest: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.digest = digest
    }
}
