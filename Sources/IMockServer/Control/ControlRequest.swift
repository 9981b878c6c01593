import IMockCore
import IMockNet

/// A control-API call as a handler sees it: path parameters and the JSON body, with typed
/// readers whose errors name the field.
struct ControlRequest {
    let http: HTTPRequest
    let parameters: [String: String]
    /// The parsed body; an empty object when the request had none.
    let body: JSONValue

    init(http: HTTPRequest, parameters: [String: String]) throws(ControlError) {
        self.http = http
        self.parameters = parameters
        if http.body.isEmpty {
            body = [:]
        } else {
            do {
                body = try JSONValue.parse(http.body)
            } catch {
                throw .badRequest("the body is not valid JSON: \(error)")
            }
            guard body.objectValue != nil else { throw .badRequest("the body must be a JSON object") }
        }
    }

    /// The app named by the `{org}` and `{app}` path parameters.
    func appKey(in directory: Directory) throws(ControlError) -> AppKey {
        let org = parameters["org"] ?? ""
        let name = parameters["app"] ?? ""
        guard let app = directory.app(org: org, app: name) else { throw .notFound("no app \(org)#\(name)") }
        return app.key
    }

    /// The `app` query parameter: absent = every app; not `org#app` → 400; unknown → 404.
    func appQuery(in directory: Directory) throws(ControlError) -> AppKey? {
        guard let text = http.queryValue("app") else { return nil }
        let key: AppKey
        do {
            key = try AppKey(parsing: text)
        } catch {
            throw .badRequest("'app' must be an app key 'org#app' (write # as %23); got '\(text)'")
        }
        guard directory.apps[key] != nil else { throw .notFound("no app \(key)") }
        return key
    }

    /// An integer request header within `range`; nil when absent.
    func intHeader(_ name: String, in range: ClosedRange<Int64>) throws(ControlError) -> Int64? {
        guard let text = http.headers[name] else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw .badRequest("the \(name) header must be an integer from \(range.lowerBound) to \(range.upperBound); got '\(text)'")
        }
        return value
    }

    /// An integer query parameter within `range`; nil when absent.
    func intQuery(_ name: String, in range: ClosedRange<Int64>) throws(ControlError) -> Int64? {
        guard let text = http.queryValue(name) else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw .badRequest("'\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound); got '\(text)'")
        }
        return value
    }

    /// Rejects query parameters the endpoint does not know, so a typo never passes silently.
    func allowQuery(_ names: Set<String>) throws(ControlError) {
        for (name, _) in http.query where !names.contains(name) {
            let allowed = names.isEmpty ? "none" : names.sorted().joined(separator: ", ")
            throw .badRequest("unknown query parameter '\(name)'; allowed: \(allowed)")
        }
    }

    /// The body as the shared reader sees it (`null` counts as absent).
    var fields: JSONObjectReader {
        // `init` made sure the body is an object.
        (try? JSONObjectReader(body)) ?? (try! JSONObjectReader([:]))
    }

    func int(_ field: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(ControlError) -> Int64? {
        try control { () throws(JSONFieldError) in try fields.int(field, in: range) }
    }

    func requiredInt(_ field: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(ControlError) -> Int64 {
        try control { () throws(JSONFieldError) in try fields.requiredInt(field, in: range) }
    }

    func number(_ field: String, in range: ClosedRange<Double>) throws(ControlError) -> Double? {
        try control { () throws(JSONFieldError) in try fields.number(field, in: range) }
    }

    func string(_ field: String) throws(ControlError) -> String? {
        try control { () throws(JSONFieldError) in try fields.string(field) }
    }

    func requiredString(_ field: String) throws(ControlError) -> String {
        try control { () throws(JSONFieldError) in try fields.requiredString(field) }
    }

    func bool(_ field: String) throws(ControlError) -> Bool? {
        try control { () throws(JSONFieldError) in try fields.bool(field) }
    }

    /// Rejects body fields the endpoint does not know, so a typo never passes silently.
    func allowOnly(_ allowed: Set<String>) throws(ControlError) {
        do {
            try fields.allowOnly(allowed)
        } catch {
            throw .badRequest("unknown field '\(error.path)'; allowed: \(allowed.sorted().joined(separator: ", "))")
        }
    }

    /// A member problem as a 400 naming the member: `'ms' must be 0 to 3153600000000`.
    private func control<T>(_ read: () throws(JSONFieldError) -> T) throws(ControlError) -> T {
        do { return try read() } catch { throw .badRequest("'\(error.path)' \(error.phrase)") }
    }
}
