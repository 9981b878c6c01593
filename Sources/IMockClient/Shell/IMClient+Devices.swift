import IMockCommon
import IMockCore
import IMockNet

/// One device a user is logged in on, as the server lists it (the protocol's `devices` entry).
public typealias LoggedInDevice = DeviceEntry

extension IMClient {
    /// The code of a REST call that got no usable answer (no connection, malformed response);
    /// an HTTP error status is reported with the status as code and the server's description.
    public static let restUnavailableCode = 300

    /// The devices `userId` is logged in on (REST `GET /{org}/{app}/users/{userId}/resources` with
    /// `token`); works without being logged in (S6). Fails at once with the profile's
    /// not-logged-in code when the client is or gets shut down.
    public func getLoggedInDevicesFromServer(userId: String, token: String) async throws(ClientError) -> [LoggedInDevice] {
        let parts = options.appKey.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ClientError(code: 101, message: "the app key \(options.appKey) is not org#app")
        }
        guard !userId.isEmpty else { throw ClientError(code: 101, message: "invalid username") }
        let path = "/\(Self.percentEncoded(parts[0]))/\(Self.percentEncoded(parts[1]))/users/\(Self.percentEncoded(userId))/resources"
        let engine = self.engine
        let answer: Result<(status: Int, body: [UInt8]), ClientError> = await engine.startOnLoop(
            orElse: .failure(engine.shutDownError)
        ) { engine, finish in
            HTTPFetch.get(loop: engine.loop, endpoint: engine.endpoint, tls: engine.tls, path: path, bearer: token) {
                finish($0.mapError { ClientError(code: IMClient.restUnavailableCode, message: "\($0)") })
            }
        }
        let (status, body) = try answer.get()
        return try Self.devices(status: status, body: body)
    }

    /// The devices of a `resources` answer, or the error it carries.
    static func devices(status: Int, body: [UInt8]) throws(ClientError) -> [LoggedInDevice] {
        let json: JSONValue
        do { json = try JSONValue.parse(body) } catch {
            throw ClientError(code: restUnavailableCode, message: "HTTP \(status): the body is not JSON (\(error))")
        }
        guard status == 200 else {
            let description = json["error_description"]?.stringValue ?? json["error"]?.stringValue ?? "HTTP \(status)"
            throw ClientError(code: status, message: description)
        }
        guard let entries = json["data"]?.arrayValue else {
            throw ClientError(code: restUnavailableCode, message: "the answer has no data array")
        }
        var devices: [LoggedInDevice] = []
        for (index, entry) in entries.enumerated() {
            guard let resource = entry["res"]?.stringValue, let uuid = entry["device_uuid"]?.stringValue,
                let name = entry["device_name"]?.stringValue
            else {
                throw ClientError(code: restUnavailableCode, message: "data[\(index)] lacks res, device_uuid or device_name")
            }
            devices.append(LoggedInDevice(resource: resource, deviceUUID: uuid, deviceName: name))
        }
        return devices
    }

    static func percentEncoded(_ text: some StringProtocol) -> String { PercentEncoding.encode(text) }
}
