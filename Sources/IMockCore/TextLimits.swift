/// Cutting text to a byte budget without splitting a character, for limits that bound memory
/// (close reasons, quoted client text in error messages).
public enum TextLimits {
    /// The longest prefix of `text` whose UTF-8 form fits `maximumUTF8Bytes`, cut at a
    /// character boundary. Linear in the prefix, never in the whole text.
    public static func prefix(_ text: String, maximumUTF8Bytes: Int) -> String {
        guard text.utf8.count > maximumUTF8Bytes else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= maximumUTF8Bytes else { break }
            result.append(character)
        }
        return result
    }
}
