/// Every way a domain operation on the ``Directory`` can fail. A failed operation changes
/// nothing.
public enum DirectoryError: Error, Sendable, Equatable {
    case invalidOrgName(String)
    case invalidAppName(String)
    case invalidAppKey(String)
    case appExists(AppKey)
    case appNotFound(AppKey)
    /// The app settings themselves are invalid (negative TTL, zero rate limit …).
    case invalidSettings(String)
    /// Client id or secret given at app creation are empty or too long.
    case invalidCredentials(String)
    /// The name as given, before folding.
    case illegalUsername(String)
    case usernameTooLong
    case passwordMissing
    case passwordTooLong
    case nicknameTooLong
    case userExists(String)
    /// The same username (after folding) appears twice in one registration batch.
    case userExistsInBatch(String)
    /// A registration batch larger than ``Directory/maximumBatchSize``.
    case batchTooLarge(Int)
    case userNotFound(String)
    case userNotActivated(String)
    case invalidPassword
    case userHasNoPassword(String)
    case clientIDMismatch
    case clientSecretMismatch
    /// `ttl` is negative or so large that the expiry overflows.
    case invalidTTL(Int64)
    /// A pagination cursor that this directory did not produce.
    case invalidCursor(String)
    /// A page size outside 1...``Directory/maximumPageSize``.
    case invalidLimit(Int)
    /// The app used up a counter (user sequences or token ids end at
    /// ``ValueLimits/maximumCounter``, which only a seed can bring near).
    case countersExhausted(String)
}

