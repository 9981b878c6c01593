import Foundation
import Testing
@testable import IMockNet
import IMockTestSupport

/// Clients we did not write: Python's `websockets` (a strict RFC 6455 client) and curl.
@Suite("Interoperability with third-party clients", .serialized)
struct InteropTests {
    static let pythonClient = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/websockets_client.py").path

    static let expectedPythonOutput = """
        text True
        binary 0 True
        binary 125 True
        binary 126 True
        binary 65535 True
        binary 65536 True
        binary 300000 True
        fragmented True
        ping True
        close 4206 kicked by another device
        client close 1000

        """

    static func hasWebsockets() async -> Bool {
        (try? await ExternalCommand.run("python3", ["-c", "import websockets.sync.client"]))?.status == 0
    }

    @Test("Python websockets: echo, 64-bit lengths, fragmentation, ping, close codes")
    func pythonWebsockets() async throws {
        try #require(await Self.hasWebsockets(), "pip install websockets (.ci/run does)")
        let server = try LoopbackServer.echo()
        let result = try await ExternalCommand.run("python3", [Self.pythonClient, "ws://127.0.0.1:\(server.port)/ws"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.expectedPythonOutput)
        await server.stop()
    }

    @Test("Python websockets over TLS (wss) with a self-signed certificate made by the test")
    func pythonWebsocketsTLS() async throws {
        try #require(await Self.hasWebsockets(), "pip install websockets (.ci/run does)")
        let (server, _, _) = try await LoopbackServer.tlsEcho()
        let result = try await ExternalCommand.run("python3", [Self.pythonClient, "wss://127.0.0.1:\(server.port)/ws"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.expectedPythonOutput)
        await server.stop()
    }

    @Test("curl: keep-alive reuses one connection for two requests")
    func curlKeepAlive() async throws {
        let server = try LoopbackServer.echo()
        let url = "http://127.0.0.1:\(server.port)"
        let result = try await ExternalCommand.run("curl", ["-sv", "\(url)/one", "\(url)/two"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("Re-using existing connection"), "\(result.stderr)")
        #expect(result.stderr.contains("X-Path: /one"))
        #expect(result.stderr.contains("X-Path: /two"))
        await server.stop()
    }

    @Test("curl: chunked upload of 300 KB comes back byte for byte")
    func curlChunkedUpload() async throws {
        let server = try LoopbackServer.echo()
        let directory = try ExternalCommand.temporaryDirectory()
        let payload = String((0..<300_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        try payload.write(toFile: directory + "/body.txt", atomically: true, encoding: .utf8)
        let result = try await ExternalCommand.run("curl", [
            "-s", "-H", "Transfer-Encoding: chunked", "-H", "Content-Type: text/plain",
            "--data-binary", "@\(directory)/body.txt", "http://127.0.0.1:\(server.port)/upload",
        ])
        #expect(result.status == 0)
        #expect(result.stdout == payload)
        await server.stop()
    }

    @Test("curl over TLS (https) with a self-signed certificate, and the 413 limit still applies")
    func curlTLS() async throws {
        let (server, certificate, directory) = try await LoopbackServer.tlsEcho()
        let url = "https://localhost:\(server.port)"
        let ok = try await ExternalCommand.run("curl", ["-s", "--cacert", certificate, "--data", "secret", "\(url)/tls"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout == "secret")
        let big = String(repeating: "x", count: 2 << 20)
        try big.write(toFile: directory + "/big.txt", atomically: true, encoding: .utf8)
        let tooLarge = try await ExternalCommand.run("curl", [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate,
            "--data-binary", "@\(directory)/big.txt", "\(url)/big",
        ])
        #expect(tooLarge.stdout == "413")
        await server.stop()
    }

    @Test("openssl s_client: TLS 1.3 with the server's suite preference (AES-128-GCM-SHA256 over the client's first choice), one session ticket")
    func opensslClientSuiteAndTickets() async throws {
        let (server, certificate, _) = try await LoopbackServer.tlsEcho()
        // OpenSSL's client lists TLS_AES_256_GCM_SHA384 first; the server picks by its own order.
        // -msg traces the handshake messages, NewSessionTicket among them.
        let result = try await ExternalCommand.run(
            "sh", ["-c", "printf 'GET /x HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' | "
                + "openssl s_client -connect 127.0.0.1:\(server.port) -CAfile \(certificate) -servername localhost -msg -ign_eof 2>&1"])
        #expect(result.stdout.contains("Ciphersuite: TLS_AES_128_GCM_SHA256") || result.stdout.contains("Cipher is TLS_AES_128_GCM_SHA256"), "\(result.stdout)")
        #expect(result.stdout.contains("Verify return code: 0 (ok)"))
        let tickets = result.stdout.components(separatedBy: "NewSessionTicket").count - 1
        #expect(tickets == 1, "NewSessionTicket messages seen: \(tickets)")
        await server.stop()
    }
}
