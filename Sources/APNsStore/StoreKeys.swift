import APNsCore

/// Key layouts. All integers are big-endian so that LMDB's byte order is numeric order.
///
/// - log:    sequence u64 → status u8 · at i64 · record (``LogValue``): every notification once,
///           appended when accepted; the queues and indexes below point into it
/// - history: number u64 → sequence u64 · status u8 · at i64 (``HistoryEntry``), appended when
///           a notification leaves its queue or enters the history at once
/// - queue:  token length u8 · token · sequence u64 → nothing (the record is the log's)
/// - expiry: expiration u64 · sequence u64 → queue key
/// - unique: unique id (UTF-8) → queue key
/// - meta:   name → value
/// - tokens: token bytes → token record
/// - feedback: token bytes → at i64 · topic
enum StoreKeys {
    static let nextSequence: [UInt8] = Array("next-sequence".utf8)
    /// The layout's version (``StoreMigration``): absent before the log held every record.
    static let format: [UInt8] = Array("format".utf8)
    /// The transaction that last dropped notifications for room (``StoreWriter/freeRoom(droppedIn:)``).
    static let roomMark: [UInt8] = Array("room-mark".utf8)

    /// The prefix shared by every queued notification of `token`.
    static func queuePrefix(_ token: DeviceToken) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(token.bytes.count + 9)
        key.append(UInt8(token.bytes.count))
        key.append(contentsOf: token.bytes)
        return key
    }

    static func queueKey(_ token: DeviceToken, sequence: UInt64) -> [UInt8] {
        var key = self.queuePrefix(token)
        key.appendBigEndian(sequence)
        return key
    }

    /// ``queueKey(_:sequence:)`` laid out on the stack for `body`.
    static func withQueueKey<T>(
        _ token: DeviceToken, sequence: UInt64, _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let tokenCount = token.bytes.count
        return try withUnsafeTemporaryAllocation(byteCount: tokenCount + 9, alignment: 1) { key throws(StoreError) -> T in
            key[0] = UInt8(tokenCount)
            token.bytes.withUnsafeBytes { tokenBytes in
                guard let source = tokenBytes.baseAddress, let target = key.baseAddress else { return }
                (target + 1).copyMemory(from: source, byteCount: tokenCount)
            }
            Self.storeBigEndian(sequence, at: 1 + tokenCount, in: key)
            return try body(UnsafeRawBufferPointer(key))
        }
    }

    /// ``expiryKey(expiration:sequence:)`` laid out on the stack for `body`.
    static func withExpiryKey<T>(
        expiration: Int64, sequence: UInt64, _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try withUnsafeTemporaryAllocation(byteCount: 16, alignment: 1) { key throws(StoreError) -> T in
            Self.storeBigEndian(UInt64(max(expiration, 0)), at: 0, in: key)
            Self.storeBigEndian(sequence, at: 8, in: key)
            return try body(UnsafeRawBufferPointer(key))
        }
    }

    static func storeBigEndian(_ value: UInt64, at offset: Int, in bytes: UnsafeMutableRawBufferPointer) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * index)) }
    }

    static func expiryKey(expiration: Int64, sequence: UInt64) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(16)
        key.appendBigEndian(UInt64(max(expiration, 0)))
        key.appendBigEndian(sequence)
        return key
    }

    static func uniqueKey(_ uniqueID: String) -> [UInt8] { Array(uniqueID.utf8) }

    static func logKey(sequence: UInt64) -> [UInt8] {
        var key: [UInt8] = []
        key.appendBigEndian(sequence)
        return key
    }

    /// An eight-byte big-endian key (the log's sequence, the history's number) laid out on the stack for `body`.
    static func withNumberKey<T>(
        _ number: UInt64, _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try withUnsafeTemporaryAllocation(byteCount: 8, alignment: 1) { key throws(StoreError) -> T in
            Self.storeBigEndian(number, at: 0, in: key)
            return try body(UnsafeRawBufferPointer(key))
        }
    }

    /// The sequence a queue key names, as the log's key.
    static func logKey(ofQueueKey queueKey: [UInt8]) -> [UInt8] { Array(queueKey.suffix(8)) }

    /// The sequence number at the end of a queue key.
    static func sequence(ofQueueKey key: UnsafeRawBufferPointer) -> UInt64 {
        key.readBigEndianUInt64(at: key.count - 8)
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { self.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func appendBigEndian(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { self.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func appendBigEndian(_ value: UInt16) {
        self.append(UInt8(truncatingIfNeeded: value >> 8))
        self.append(UInt8(truncatingIfNeeded: value))
    }
}

extension UnsafeRawBufferPointer {
    func readBigEndianUInt64(at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(self[offset + i]) }
        return value
    }
}
