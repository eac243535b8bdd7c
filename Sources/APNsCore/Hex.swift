/// Hex helpers shared by tokens and identifiers.
public enum Hex {
    /// The value of one ASCII hex digit, or `nil`.
    @inlinable
    public static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    /// Lower-case hex of some bytes.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
