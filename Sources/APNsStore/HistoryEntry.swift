import APNsCore

/// A history entry: a notification left its queue (or entered the history at once) with
/// `status` at `at`. The history database holds them in that order under growing numbers:
/// number u64 → sequence u64 · status u8 · at i64.
struct HistoryEntry {
    static let size = 17

    var sequence: UInt64
    var status: LogStatus
    var at: Int64

    init(sequence: UInt64, status: LogStatus, at: Int64) {
        self.sequence = sequence
        self.status = status
        self.at = at
    }

    init(_ value: UnsafeRawBufferPointer) throws(StoreError) {
        guard value.count == Self.size, let status = LogStatus(rawValue: value[8]) else { throw .corruptRecord("history entry") }
        self.init(
            sequence: value.readBigEndianUInt64(at: 0), status: status, at: Int64(bitPattern: value.readBigEndianUInt64(at: 9)))
    }

    /// The value's bytes laid out on the stack for `body`.
    func withValue<T>(_ body: (UnsafeRawBufferPointer) throws(StoreError) -> T) throws(StoreError) -> T {
        try withUnsafeTemporaryAllocation(byteCount: Self.size, alignment: 1) { value throws(StoreError) -> T in
            StoreKeys.storeBigEndian(self.sequence, at: 0, in: value)
            value[8] = self.status.rawValue
            StoreKeys.storeBigEndian(UInt64(bitPattern: self.at), at: 9, in: value)
            return try body(UnsafeRawBufferPointer(value))
        }
    }
}
