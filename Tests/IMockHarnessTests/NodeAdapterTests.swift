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
            guard await Self.nodeInstalled() else {
                print("skipped: node ≥ 20 with --experimental-websocket not installed")
                return
            }
            try await expectAdapterPassesItsSubset(
                "node-plain", script: "adapter.js", atLeast: 10, interpreter: Self.node, subsetOf: "python-imock")
        }

        @Test("devices that name their own resource are addressed by fixture name: kicks, faults, device lists (skipped without node ≥ 20)")
        func ownResources() async throws {
            guard await Self.nodeInstalled() else {
                print("skipped: node ≥ 20 with --experimental-websocket not installed")
                return
            }
            // Each device logs in as `webim_random_…`, as the Easemob Web SDK does: the harness
            // learns the resource from the server's login.ok (S5 kicks by device, S6 lists devices).
            try await expectAdapterPassesItsSubset(
                "node-plain", script: "adapter.js", atLeast: 10, interpreter: ["env", "IMOCK_NODE_OWN_RESOURCE=1"] + Self.node,
                subsetOf: "python-imock")
        }

        static func nodeInstalled() async -> Bool {
            let probe = "command -v node >/dev/null && node --experimental-websocket -e 'process.exit(typeof WebSocket === \"function\" ? 0 : 1)' 2>/dev/null"
            return (try? await ExternalCommand.run("/bin/sh", ["-c", probe]))?.status == 0
        }
    }
}
