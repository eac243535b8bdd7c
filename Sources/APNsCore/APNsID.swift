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
    /// With a `shard`, its last byte maps to that shard (``Shard/index(ofUniqueID:count:)``).
    public static func random<G: RandomNumberGenerator>(using generator: inout G, shard: Shard? = nil) -> String {
        let high = ((generator.next() as UInt64) & ~0xF000) | 0x4000  // version 4
        return self.format(high: high, low: self.variant(generator.next(), shard: shard))
    }

    /// A new time-ordered (version 7, RFC 9562) UUID in lower case: the first 48 bits are
    /// `nowMillis`, the rest random. Identifiers made later sort later, so the store's index of
    /// them grows at one end instead of touching a random page per notification.
    public static func timeOrdered<G: RandomNumberGenerator>(
        nowMillis: Int64, using generator: inout G, shard: Shard? = nil
    ) -> String {
        let high = UInt64(truncatingIfNeeded: nowMillis) << 16 | 0x7000 | ((generator.next() as UInt64) & 0x0FFF)  // version 7
        return self.format(high: high, low: self.variant(generator.next(), shard: shard))
    }

    /// `bits` with the RFC 4122 variant in its top two bits, and the shard's byte in its lowest.
    private static func variant(_ bits: UInt64, shard: Shard?) -> UInt64 {
        ((shard?.stamp(bits) ?? bits) & ~(0xC000 << 48)) | (0x8000 << 48)
    }

    private static func format(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789abcdef"
            var out = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    buffer[out] = UInt8(ascii: "-")
                    out += 1
                }
                let word = nibble < 16 ? high : low
                let shift = UInt64(60 - 4 * (nibble % 16))
                buffer[out] = digits.utf8Start[Int((word >> shift) & 0xF)]
                out += 1
            }
            return out
        }
    }

    /// A new random UUID from the system generator.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return self.random(using: &generator)
    }
}
