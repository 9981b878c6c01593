/// Type ids gob predefines on every stream (Go `encoding/gob` doc.go), and the first id a
/// stream may define.
public enum GobTypeID {
    /// `bool`.
    public static let bool = 1
    /// Every signed integer type (`int`, `int8` … `int64`).
    public static let int = 2
    /// Every unsigned integer type.
    public static let uint = 3
    /// `float32` and `float64`.
    public static let float = 4
    /// `[]byte`.
    public static let bytes = 5
    /// `string`.
    public static let string = 6
    /// `complex64` and `complex128`.
    public static let complex = 7
    /// Any interface value.
    public static let interface = 8
    /// The first id an encoder assigns to its own types; lower ids are reserved.
    public static let firstUser = 64
}
