/// Journal ids by store sequence, for ``JournalState``: the writer thread updates it for every
/// accepted notification (an insert, and a removal for the entry the ring pushes out), so it is an
/// open-addressing table of integers (linear probing, Fibonacci hashing, deletion by backward
/// shift) rather than a `Dictionary`, whose SipHash and generic paths cost more than the rest of
/// the bookkeeping together.
struct SequenceIndex: Sendable {
    /// Sequence + 1 in each used slot; 0 marks an empty one.
    private var keys: [UInt64]
    private var values: [UInt64]
    private var mask: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        self.keys = Array(repeating: 0, count: size)
        self.values = Array(repeating: 0, count: size)
        self.mask = size - 1
    }

    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & self.mask
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func slot(of key: UInt64) -> Int {
        var index = self.home(key)
        while self.keys[index] != 0 && self.keys[index] != key { index = (index + 1) & self.mask }
        return index
    }

    subscript(sequence: UInt64) -> UInt64? {
        let index = self.slot(of: sequence &+ 1)
        return self.keys[index] == 0 ? nil : self.values[index]
    }

    mutating func set(_ sequence: UInt64, _ id: UInt64) {
        if (self.count + 1) * 2 > self.keys.count { self.grow() }
        let key = sequence &+ 1
        let index = self.slot(of: key)
        if self.keys[index] == 0 {
            self.keys[index] = key
            self.count += 1
        }
        self.values[index] = id
    }

    mutating func remove(_ sequence: UInt64) {
        var hole = self.slot(of: sequence &+ 1)
        guard self.keys[hole] != 0 else { return }
        self.count -= 1
        // Moves back every following entry of the run that the hole would hide from its home.
        var next = hole
        while true {
            next = (next + 1) & self.mask
            let key = self.keys[next]
            if key == 0 { break }
            let home = self.home(key)
            let reachable = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if reachable { continue }
            self.keys[hole] = key
            self.values[hole] = self.values[next]
            hole = next
        }
        self.keys[hole] = 0
    }

    mutating func removeAll() {
        for index in self.keys.indices { self.keys[index] = 0 }
        self.count = 0
    }

    private mutating func grow() {
        let (keys, values) = (self.keys, self.values)
        self = SequenceIndex(capacity: keys.count)
        for (key, value) in zip(keys, values) where key != 0 { self.set(key &- 1, value) }
    }
}
