import APNsCore
import CLMDB
import Foundation
import Synchronization

/// The journal's `q` over the store: every record looked at in place, on two threads.
extension NotificationStore {
    /// The sequences of the stored notifications (queued or logged) with `text` (lower-case
    /// ASCII) in their unique id, apns-id, push type, topic, collapse id or payload, compared
    /// ASCII case-insensitively. The log (every record) is split at the middle of its keys, and
    /// the halves searched at once, each in a read of its own: a search reads every record, and
    /// reading is what it costs.
    public func sequences(containing text: [UInt8]) throws(StoreError) -> Set<UInt64> {
        defer { self.releaseMappedPages() }
        let split = try self.read { txn throws(StoreError) in try Self.middleKey(txn, self.environment.log) }
        let found = Mutex<(sequences: Set<UInt64>, error: StoreError?)>(([], nil))
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let result = Result { () throws(StoreError) -> Set<UInt64> in
                try self.read { txn throws(StoreError) in
                    var sequences: Set<UInt64> = []
                    try Self.scanHalf(half, of: self.environment.log, split: split, txn) { key, value throws(StoreError) in
                        guard key.count == 8 else { throw .corruptRecord("log key") }
                        if try NotificationCodec.contains(text, in: LogValue.record(of: value)) {
                            sequences.insert(key.readBigEndianUInt64(at: 0))
                        }
                    }
                    return sequences
                }
            }
            found.withLock { found in
                switch result {
                case .success(let sequences): found.sequences.formUnion(sequences)
                case .failure(let error): found.error = error
                }
            }
        }
        let (sequences, error) = found.withLock { ($0.sequences, $0.error) }
        if let error { throw error }
        return sequences
    }

    /// Visits the keys below `split` (half 0) or from it on (half 1); with no split, half 0 has them all.
    private static func scanHalf(
        _ half: Int, of dbi: MDB_dbi, split: [UInt8]?, _ txn: Transaction,
        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws(StoreError) -> Void
    ) throws(StoreError) {
        guard let split else {
            if half == 0 {
                try txn.scan(dbi) { key, value throws(StoreError) in
                    try body(key, value)
                    return true
                }
            }
            return
        }
        try txn.scan(dbi, from: half == 0 ? [] : split) { key, value throws(StoreError) in
            if half == 0, !key.lexicographicallyPrecedes(split) { return false }
            try body(key, value)
            return true
        }
    }

    /// A key halfway between the first and the last of `dbi`, byte-wise (the eight bytes after
    /// their common prefix, averaged): random tokens and a load test's counters split evenly.
    /// Nil when there are fewer than two keys.
    static func middleKey(_ txn: Transaction, _ dbi: MDB_dbi) throws(StoreError) -> [UInt8]? {
        var first: [UInt8]?
        var last: [UInt8]?
        try txn.scan(dbi) { key, _ in
            first = Array(key)
            return false
        }
        try txn.scan(dbi, reverse: true) { key, _ in
            last = Array(key)
            return false
        }
        guard let first, let last, first.lexicographicallyPrecedes(last) else { return nil }
        let common = zip(first, last).prefix { $0 == $1 }.count
        func number(_ key: [UInt8]) -> UInt64 {
            (0..<8).reduce(0) { $0 << 8 | UInt64(common + $1 < key.count ? key[common + $1] : 0) }
        }
        let (low, high) = (number(first), number(last))
        let middle = low / 2 + high / 2 + (low & high & 1)
        var key = Array(first.prefix(common))
        key.appendBigEndian(middle)
        return key
    }
}
