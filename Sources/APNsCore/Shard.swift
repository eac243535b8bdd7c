/// One of N emulators that together answer for the device tokens (`serve --shard K/N`): each
/// owns the tokens whose first byte maps to it, by one table that HAProxy's map file holds too
/// (`apns-emulator cluster haproxy-config`).
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// This shard, from 0.
    public let index: Int
    /// How many shards there are (1 to 256: a token's first byte picks one).
    public let count: Int

    public init?(index: Int, count: Int) {
        guard (1...256).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N`, as `--shard` takes it.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(self.index)/\(self.count)" }

    /// The shard a token's first byte maps to, among `count`.
    public static func index(ofFirstByte byte: UInt8, count: Int) -> Int { Int(byte) % count }

    /// The shard that owns `token`, among `count`.
    public static func index(of token: DeviceToken, count: Int) -> Int { Self.index(ofFirstByte: token.bytes[0], count: count) }

    /// Whether this shard owns `token`.
    public func owns(_ token: DeviceToken) -> Bool { Self.index(of: token, count: self.count) == self.index }

    /// A new token this shard owns: 32 random bytes whose first byte maps here.
    public func randomToken() -> DeviceToken {
        var bytes = DeviceToken.random().bytes
        let choices = (255 - self.index) / self.count + 1
        bytes[0] = UInt8(self.index + self.count * Int.random(in: 0..<choices))
        return DeviceToken(bytes: bytes) ?? DeviceToken.random()
    }

    /// HAProxy's map file: each token's first byte in hex (as a path carries it, lower case) and
    /// the backend of the shard it maps to (`shard0` ...).
    public static func mapFile(count: Int) -> String {
        (0...255).map { byte in
            let hex = String(byte, radix: 16)
            return "\(hex.count == 1 ? "0" + hex : hex) shard\(Self.index(ofFirstByte: UInt8(byte), count: count))\n"
        }.joined()
    }
}

extension Shard {
    /// The shard an identifier this emulator made belongs to: the last byte of a UUID (its last
    /// two hex digits), by the same table as tokens; nil for text that is not a canonical UUID.
    public static func index(ofUniqueID id: String, count: Int) -> Int? {
        guard APNsID.isCanonical(id), let byte = UInt8(id.suffix(2), radix: 16) else { return nil }
        return Self.index(ofFirstByte: byte, count: count)
    }

    /// `bits` with its lowest byte replaced by one that maps to this shard (the rest unchanged).
    public func stamp(_ bits: UInt64) -> UInt64 {
        let choices = UInt64((255 - self.index) / self.count + 1)
        let byte = UInt64(self.index) + UInt64(self.count) * ((bits >> 8) % choices)
        return (bits & ~0xFF) | byte
    }

    /// The shard that owns a bundle's broadcast channels: CRC-32 (IEEE, as zlib and HAProxy's
    /// `crc32` converter compute it) of the bundle id, modulo `count`; the generated haproxy.cfg
    /// routes `/1/apps/<bundle>` and `/4/broadcasts/apps/<bundle>` by the same sum.
    public static func index(ofBundle bundleID: String, count: Int) -> Int {
        Int(CRC32.checksum(bundleID.utf8) % UInt32(count))
    }
}
