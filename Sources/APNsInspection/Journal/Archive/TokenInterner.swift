import APNsCore

/// Small ids for the device tokens of the journal's archive, given on the writer thread as each
/// entry leaves the ring: an open-addressing table keyed by eight bytes of the token (its first
/// and last eight, folded: random for APNs' tokens, distinct for a load test's counters), so that
/// an id costs one probe and one comparison rather than hashing the token (``Interner`` did, a
/// profile put it at 3% of the accept path).
struct TokenInterner: Sendable {
    /// Id + 1 in each used slot; 0 marks an empty one.
    private var slots: [UInt32]
    /// Each used slot's token's eight folded bytes: a probe passes a slot of another token without
    /// reading that token (a retain, a release and a comparison of its bytes).
    private var keys: [UInt64]
    private var mask: Int
    private var tokens: [DeviceToken] = []

    init() {
        self.slots = Array(repeating: 0, count: 1024)
        self.keys = Array(repeating: 0, count: 1024)
        self.mask = 1023
    }

    /// The id of `token`, given one now if it has none.
    mutating func id(_ token: DeviceToken) -> UInt32 {
        if (self.tokens.count + 1) * 2 > self.slots.count { self.grow() }
        let key = Self.key(token)
        let index = self.slot(of: token, key: key)
        if self.slots[index] != 0 { return self.slots[index] - 1 }
        let id = UInt32(self.tokens.count)
        self.tokens.append(token)
        self.slots[index] = id + 1
        self.keys[index] = key
        return id
    }

    /// The id of `token`, if it has one.
    func existing(_ token: DeviceToken) -> UInt32? {
        let index = self.slot(of: token, key: Self.key(token))
        return self.slots[index] == 0 ? nil : self.slots[index] - 1
    }

    subscript(id: UInt32) -> DeviceToken { self.tokens[Int(id)] }

    /// The ids of the tokens `condition` holds for.
    func ids(where condition: (DeviceToken) -> Bool) -> Set<UInt32> {
        Set(self.tokens.indices.filter { condition(self.tokens[$0]) }.map { UInt32($0) })
    }

    /// The most slots any token's lookup passes before it finds its own: how well they spread.
    var longestProbe: Int {
        self.tokens.map { token in
            var (index, probes) = (Self.home(Self.key(token), self.mask), 1)
            while self.tokens[Int(self.slots[index] - 1)] != token {
                index = (index + 1) & self.mask
                probes += 1
            }
            return probes
        }.max() ?? 0
    }

    /// The slot holding `token` (whose ``key(_:)`` is `key`), or the empty one where it would go.
    private func slot(of token: DeviceToken, key: UInt64) -> Int {
        var index = Self.home(key, self.mask)
        while self.slots[index] != 0, self.keys[index] != key || self.tokens[Int(self.slots[index] - 1)] != token {
            index = (index + 1) & self.mask
        }
        return index
    }

    /// The token's first and last eight bytes, folded.
    private static func key(_ token: DeviceToken) -> UInt64 {
        token.bytes.withUnsafeBytes { bytes -> UInt64 in
            guard bytes.count >= 8 else { return 0 }
            return bytes.loadUnaligned(as: UInt64.self) ^ bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        }
    }

    private static func home(_ key: UInt64, _ mask: Int) -> Int {
        // Mixed through every bit (MurmurHash3's finalizer): a counter's token loads as a few
        // high bytes, and a multiplication alone leaves the low bits, the mask's, all zero.
        var mixed = key
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        return Int(truncatingIfNeeded: mixed) & mask
    }

    private mutating func grow() {
        let size = self.slots.count * 2
        self.slots = Array(repeating: 0, count: size)
        self.keys = Array(repeating: 0, count: size)
        self.mask = size - 1
        for (id, token) in self.tokens.enumerated() {
            let key = Self.key(token)
            let index = self.slot(of: token, key: key)
            self.slots[index] = UInt32(id) + 1
            self.keys[index] = key
        }
    }
}
