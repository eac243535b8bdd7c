/// Helpers for `apns-id` and `apns-unique-id`: canonical UUID strings (8-4-4-4-12 hex).
public enum APNsID {
    /// Whether `value` is a canonical UUID string, as APNs requires of `apns-id`.
    public static func isCanonical<S: StringProtocol>(_ value: S) -> Bool {
        let utf8 = value.utf8
        guard utf8.count == 36 else { return false }
        var index = 0
        for character in utf8 {
            switch index {
            case 8, 13, 18, 23:
                guard character == UInt8(ascii: "-") else { return false }
            default:
                guard Hex.value(of: character) != nil else { return false }
            }
            index += 1
        }
        return true
    }

    /// A new random (version 4) UUID in lower case.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // RFC 4122 variant
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(i)))
        }
        let hex = Hex.encode(bytes)
        let utf8 = Array(hex.utf8)
        return String(decoding: utf8[0..<8], as: UTF8.self) + "-" + String(decoding: utf8[8..<12], as: UTF8.self)
            + "-" + String(decoding: utf8[12..<16], as: UTF8.self) + "-"
            + String(decoding: utf8[16..<20], as: UTF8.self) + "-" + String(decoding: utf8[20..<32], as: UTF8.self)
    }

    /// A new random UUID from the system generator.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return self.random(using: &generator)
    }
}
