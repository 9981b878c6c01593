import IMockCommon

extension HTTPResponse {
    /// The response to a request that could not be parsed: the error's status, a JSON body
    /// `{"error":"<name>","error_description":"<description>"}` and `Connection: close`.
    public static func transportError(_ error: HTTPParseError) -> HTTPResponse {
        jsonError(status: error.status, error: error.name, description: error.description)
    }

    /// A transport-level error response: JSON `{"error":…,"error_description":…}` and
    /// `Connection: close`. Used for parse errors, timeouts and refusals before any route runs.
    public static func jsonError(status: Int, error: String, description: String) -> HTTPResponse {
        let body = "{\"error\":\(JSONStringEscaping.quoted(error)),"
            + "\"error_description\":\(JSONStringEscaping.quoted(description))}"
        return .json(status: status, Array(body.utf8), headers: ["Connection": "close"])
    }
}
