/// What `HTTPRequestParser.next()` found in the bytes fed so far.
public enum HTTPParseEvent: Equatable, Sendable {
    /// No complete request is buffered; feed more bytes.
    case needMore
    /// The head of a request with `Expect: 100-continue` arrived but its body has not:
    /// write `HTTPResponse.continue100`, then keep feeding. Returned at most once per request.
    case expectContinue
    /// A complete request, in the order requests arrived on the connection.
    case request(HTTPRequest)
    /// The bytes are not a valid request: answer with `error.status` and close the connection.
    /// The parser stays failed and returns this error from every later call.
    case error(HTTPParseError)
}
