/// A Swift value that travels as a gob struct.
///
/// ``gobStruct`` declares the Go struct; the field methods have default implementations
/// through its key paths. A type on a hot path (the OpenIM gateway's `Req` and `Resp`, a few
/// frames a message) implements them with its stored properties instead, which costs a
/// fraction of a key path's projection; its tests hold both paths to the same bytes.
public protocol GobCodable: Sendable {
    /// The Go struct this type stands for.
    static var gobStruct: GobStruct<Self> { get }
    /// The zero value: every field empty, as a decoded struct starts.
    init()
    /// Writes every field of ``gobStruct``, in declaration order, through `writer`.
    func encodeGobFields(to writer: inout GobFieldWriter)
    /// Reads the value of field `index` (its position in ``gobStruct``) from `reader`.
    mutating func decodeGobField(_ index: Int, from reader: inout GobReader) throws(GobError)
}

extension GobCodable {
    public func encodeGobFields(to writer: inout GobFieldWriter) {
        Self.gobStruct.encodeFields(of: self, to: &writer)
    }

    public mutating func decodeGobField(_ index: Int, from reader: inout GobReader) throws(GobError) {
        try Self.gobStruct.decodeField(index, of: &self, from: &reader)
    }
}
