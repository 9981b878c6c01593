extension HTTPResponse {
    /// The response to a request that could not be parsed: the error's status, a JSON body
    /// `{"error":"<name>","error_description":"<description>"}` and `Connection: close`.
    public static func transportError(_ error: HTTPParseError) -> HTTPResponse {
        let body = "{\"error\":\(JSONStringEscaping.quoted(error.name)),"
            + "\"error_description\":\(JSONStringEscaping.quoted(error.description))}"
        return .json(status: error.status, Array(body.utf8), headers: ["Connection": "close"])
    }
}
