import Foundation
import Testing
import IMockTestSupport

/// The msync dialect spoken by a client we did not write: Python's `websockets` with a protobuf
/// encoder written by hand from the schema's field numbers (docs/PROTOCOL-MSYNC.md).
@Suite("msync with a Python websockets client")
struct PythonMsyncTests {
    @Test("provision, heartbeat, send and ack, paged offline pull, NOTICE, kick 206 and its linger, refusal, base64 text, SockJS and its kick's linger, two tabs of one browser")
    func pythonDevice() async throws {
        let fixture = try SessionFixture()
        let output = try await runPythonClient("msync_client.py", against: fixture)
        #expect(
            output == """
                provision 3 0: webim_wx_1 expires_in>0
                unread 1 0: queues 0 timestamp>0 True
                ack 0 0: metaId 42 serverId>0 True
                ack 0 1:username nobody doesn't exist! metaId 44
                logout 4 0:
                closed 1000
                provision 3
                unread 1 [('alice', 2)]
                page 0 queue=alice metas=['alice:hi bob 1', 'alice:hi bob 2'] isLast=0 nextKey=yes
                page 0 queue=alice metas=[] isLast=1 nextKey=no
                notice 2 alice
                page 0 queue=alice metas=['alice:live'] isLast=0 nextKey=yes
                page 0 queue=alice metas=[] isLast=1 nextKey=no
                kick 0 ns 0 operation 2 reason ext-1 queue bob
                closed 4206
                linger True
                refused 3 1:Sorry, token or password does not match login info
                closed 4104
                info 200 True False ['*:*'] int
                open o
                sockjs a 1 3 0:
                sockjs [1, 1]
                sockjs c[3000,"Broken framing."]
                closed 3000
                sockjs kick a operation 3
                sockjs c[4216,"kicked by the control API"] linger True
                closed 4216
                tab 2 3 0:
                tab 1 kick 0 operation 2
                closed 4206

                """)
        await fixture.stop()
    }
}
