import IMockHarness
import IMockTestSupport
import Testing

extension HarnessTests {
    /// `adapters/node-plain`, an adapter written from docs/FIXTURES.md § Adapters and
    /// docs/PROTOCOL.md alone: the documents are enough to pass the Python adapter's subset.
    @Suite("Node adapter written from the docs")
    struct NodeAdapterTests {
        /// `node` with the global `WebSocket` behind `--experimental-websocket` (Node 20 … 21).
        static let node = ["node", "--experimental-websocket"]

        @Test("the Node adapter passes the Python adapter's subset (skipped without node ≥ 20)")
        func nodeSubset() async throws {
            let probe = "command -v node >/dev/null && node --experimental-websocket -e 'process.exit(typeof WebSocket === \"function\" ? 0 : 1)' 2>/dev/null"
            guard (try? await ExternalCommand.run("/bin/sh", ["-c", probe]))?.status == 0 else {
                print("skipped: node ≥ 20 with --experimental-websocket not installed")
                return
            }
            try await expectAdapterPassesItsSubset(
                "node-plain", script: "adapter.js", atLeast: 10, interpreter: Self.node, subsetOf: "python-imock")
        }
    }
}
