/// A device token: the bytes APNs gave an app on one device.
///
/// Real tokens are 32 bytes, but Apple warns they vary in length, so any 32 to 100 bytes are accepted.
public struct DeviceToken: Hashable, Sendable, CustomStringConvertible {
    /// The smallest and largest token sizes accepted, in bytes.
    public static let acceptedByteCounts: ClosedRange<Int> = 32...100

    /// The raw token bytes.
    public let bytes: [UInt8]

    /// Wraps raw bytes; `nil` when their count is outside ``acceptedByteCounts``.
    public init?(bytes: [UInt8]) {
        guard Self.acceptedByteCounts.contains(bytes.count) else { return nil }
        self.bytes = bytes
    }

    /// Parses the hex form used in `/3/device/<token>` (either case); `nil` when it is not
    /// even-length hex of an accepted size.
    public init?<S: StringProtocol>(hex: S) {
        let parsed =
            hex.utf8.withContiguousStorageIfAvailable { DeviceToken(hexDigits: $0) } ?? DeviceToken(hexDigits: Array(hex.utf8))
        guard let parsed = parsed else { return nil }
        self = parsed
    }

    /// Parses hex digits in place: a provider's path is read once, without a copy.
    public init?(hexDigits digits: UnsafeBufferPointer<UInt8>) {
        guard digits.count % 2 == 0, Self.acceptedByteCounts.contains(digits.count / 2) else { return nil }
        var valid = true
        let bytes = [UInt8](unsafeUninitializedCapacity: digits.count / 2) { buffer, count in
            for index in 0..<buffer.count {
                guard let high = Hex.value(of: digits[2 * index]), let low = Hex.value(of: digits[2 * index + 1]) else {
                    valid = false
                    break
                }
                buffer[index] = high << 4 | low
                count = index + 1
            }
        }
        guard valid else { return nil }
        self.bytes = bytes
    }

    /// Why `digits` is not a device token, with its own figures first (`8 hex digits; a device
    /// token is 64`); nil when it is one.
    public static func refusal(hexDigits digits: UnsafeBufferPointer<UInt8>) -> String? {
        if let index = digits.firstIndex(where: { Hex.value(of: $0) == nil }) {
            let character = Character(UnicodeScalar(digits[index]))
            return "character \(index + 1) of the token, \"\(character)\", is not a hex digit; a device token is 64 hex digits"
        }
        guard digits.count % 2 == 0, Self.acceptedByteCounts.contains(digits.count / 2) else {
            let (least, most) = (Self.acceptedByteCounts.lowerBound * 2, Self.acceptedByteCounts.upperBound * 2)
            return "\(digits.count) hex digits; a device token is 64 (APNs takes an even count from \(least) to \(most))"
        }
        return nil
    }

    private init?(hexDigits digits: [UInt8]) {
        guard let token = digits.withUnsafeBufferPointer({ DeviceToken(hexDigits: $0) }) else { return nil }
        self = token
    }

    /// A new token as the emulator issues them: 32 random bytes from the system's generator.
    public static func random() -> DeviceToken {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return DeviceToken(uncheckedBytes: bytes)
    }

    private init(uncheckedBytes: [UInt8]) {
        self.bytes = uncheckedBytes
    }

    /// Compared as one block of memory: the derived conformance compares element by element,
    /// and tokens are compared and hashed on every accept (queues, subscriptions).
    public static func == (lhs: DeviceToken, rhs: DeviceToken) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                var offset = 0
                while offset + 8 <= left.count {
                    guard
                        left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    else { return false }
                    offset += 8
                }
                while offset < left.count {
                    guard left[offset] == right[offset] else { return false }
                    offset += 1
                }
                return true
            }
        }
    }

    /// Hashed as one block of memory, not byte by byte.
    public func hash(into hasher: inout Hasher) {
        self.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Lower-case hex, as the admin API and logs show it.
    public var hex: String { Hex.encode(self.bytes) }

    public var description: String { self.hex }
}
