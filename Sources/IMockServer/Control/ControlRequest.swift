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

    func int(_ field: String) throws(ControlError) -> Int64? {
        guard let value = body[field], !value.isNull else { return nil }
        guard let number = value.intValue else { throw .badRequest("'\(field)' must be an integer") }
        return number
    }

    func requiredInt(_ field: String) throws(ControlError) -> Int64 {
        guard let value = try int(field) else { throw .badRequest("'\(field)' is required") }
        return value
    }

    func string(_ field: String) throws(ControlError) -> String? {
        guard let value = body[field], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .badRequest("'\(field)' must be a string") }
        return text
    }

    func requiredString(_ field: String) throws(ControlError) -> String {
        guard let value = try string(field) else { throw .badRequest("'\(field)' is required") }
        return value
    }

    func bool(_ field: String) throws(ControlError) -> Bool? {
        guard let value = body[field], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .badRequest("'\(field)' must be true or false") }
        return flag
    }

    /// Rejects body fields the endpoint does not know, so a typo never passes silently.
    func allowOnly(_ fields: Set<String>) throws(ControlError) {
        for (key, _) in body.objectValue ?? [] where !fields.contains(key) {
            throw .badRequest("unknown field '\(key)'; allowed: \(fields.sorted().joined(separator: ", "))")
        }
    }
}
