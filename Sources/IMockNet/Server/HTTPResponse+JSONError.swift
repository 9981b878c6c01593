extension HTTPResponse {
    /// A transport-level error response: JSON `{"error":…,"error_description":…}` and
    /// `Connection: close`. Used for timeouts and refusals that happen before any route runs.
    public static func jsonError(status: Int, error: String, description: String) -> HTTPResponse {
        let body = "{\"error\":\(JSONStringEscaping.quoted(error)),"
            + "\"error_description\":\(JSONStringEscaping.quoted(description))}"
        return .json(status: status, Array(body.utf8), headers: ["Connection": "close"])
    }
}
