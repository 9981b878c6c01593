import IMockWire
import Testing

@Suite("Wire layer")
struct IMockWireModuleTests {
    @Test("the module links")
    func links() {
        #expect(String(describing: IMockWire.self) == "IMockWire")
    }
}
