/// imock's version, reported by `imock --version` and `GET /_imock/health`.
public enum IMockVersion {
    public static let current = "0.1.0"
}
