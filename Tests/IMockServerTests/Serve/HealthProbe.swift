import FoundationEssentials
import IMockNet
import IMockTestSupport

/// The body of `GET /_imock/health`.
struct Health: Decodable, Equatable {
    var status: String
    var version: String
    var uptimeMs: Int64
    var connections: Int
    var sessions: Int
}

/// Reads `GET /_imock/health` from a server on loopback.
enum HealthProbe {
    /// One request on a fresh connection; throws unless the answer is a 200 with a health body.
    static func fetch(port: UInt16) throws -> Health {
        let socket = try RawSocket(port: port)
        try socket.send("GET /_imock/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = try socket.receiveResponse()
        guard response.head.status == 200 else {
            throw HealthProbeError( "health answered \(response.head.status)")
        }
        return try JSONDecoder().decode(Health.self, from: Data(response.body))
    }

    /// Retries `fetch` until `accept` holds or `attempts` tries (20 ms apart) have failed; returns the last health
    /// read. For states the server reaches asynchronously (a peer's FIN, an accept back-off).
    static func eventually(
        port: UInt16, attempts: Int = 250, _ accept: (Health) -> Bool = { _ in true }
    ) async throws -> Health {
        var lastError: (any Error)?
        var last: Health?
        for attempt in 0..<attempts {
            if attempt > 0 { try await Task.sleep(for: .milliseconds(20)) }
            do {
                let health = try fetch(port: port)
                last = health
                if accept(health) { return health }
            } catch {
                lastError = error
            }
        }
        if let last { return last }
        throw lastError ?? HealthProbeError( "no health answer")
    }
}

/// A health answer that was not a 200 with a body, or no answer at all.
struct HealthProbeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
