/// Writes the fields of one struct value, leaving out zero values as gob does: each call
/// names the field's number (its position in the Go declaration), in increasing order.
public struct GobFieldWriter {
    var out: GobWriter
    private var last = -1

    init(_ out: GobWriter) { self.out = out }

    /// A Go `bool` field.
    public mutating func bool(_ number: Int, _ value: Bool) {
        guard value else { return }
        out.writeFieldDelta(to: number, from: &last)
        out.writeUint(1)
    }

    /// A Go `int` field.
    public mutating func int(_ number: Int, _ value: Int) {
        guard value != 0 else { return }
        out.writeFieldDelta(to: number, from: &last)
        out.writeInt(Int64(value))
    }

    /// A Go `uint` field.
    public mutating func uint(_ number: Int, _ value: UInt64) {
        guard value != 0 else { return }
        out.writeFieldDelta(to: number, from: &last)
        out.writeUint(value)
    }

    /// A Go `string` field.
    public mutating func string(_ number: Int, _ value: String) {
        guard !value.isEmpty else { return }
        out.writeFieldDelta(to: number, from: &last)
        out.writeString(value)
    }

    /// A Go `[]byte` field.
    public mutating func bytes(_ number: Int, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        out.writeFieldDelta(to: number, from: &last)
        out.writeBytes(value)
    }

    /// A field of any kind.
    mutating func value(_ number: Int, _ value: GobValue) {
        guard !value.isZero else { return }
        out.writeFieldDelta(to: number, from: &last)
        out.write(value)
    }

    /// The end of the struct; the writer is ready for the next one.
    mutating func endStruct() {
        out.writeStructEnd()
        last = -1
    }
}
