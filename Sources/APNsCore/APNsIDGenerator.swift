/// Makes random (version 4) UUID strings quickly: xoshiro256** seeded from the system's random
/// source, so an identifier costs no system call.
///
/// Not for secrets: `apns-id` and `apns-unique-id` only need to be unique, and 122 random bits from
/// a well-seeded generator are. Not thread-safe: keep one per event loop or connection.
public struct APNsIDGenerator: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)
    /// The shard every identifier made here maps to (its last byte), when the emulator is one.
    private let shard: Shard?

    public init(shard: Shard? = nil) {
        self.shard = shard
        var system = SystemRandomNumberGenerator()
        self.state = (system.next(), system.next(), system.next(), system.next())
        if self.state == (0, 0, 0, 0) { self.state.0 = 1 }
    }

    public mutating func next() -> UInt64 {
        let result = rotateLeft(self.state.1 &* 5, 7) &* 9
        let t = self.state.1 << 17
        self.state.2 ^= self.state.0
        self.state.3 ^= self.state.1
        self.state.1 ^= self.state.2
        self.state.0 ^= self.state.3
        self.state.2 ^= t
        self.state.3 = rotateLeft(self.state.3, 45)
        return result
    }

    /// A new lower-case UUID string.
    public mutating func uuid() -> String {
        APNsID.random(using: &self, shard: self.shard)
    }

    /// A new time-ordered (version 7) UUID string for `nowMillis`.
    public mutating func timeOrderedUUID(nowMillis: Int64) -> String {
        APNsID.timeOrdered(nowMillis: nowMillis, using: &self, shard: self.shard)
    }
}

@inline(__always)
private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
