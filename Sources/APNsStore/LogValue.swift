import APNsCore

/// A log entry's value: status u8 · at i64 · record. A notification accepted into a queue is
/// written with status 0 and the time it was accepted, and keeps them; where it went is the
/// history's (``HistoryEntry``). One that entered the history at once (discarded, delivered
/// once, recorded) carries its status and time here as well.
enum LogValue {
    /// The bytes before the record.
    static let headerSize = 9
    /// The status byte of a notification accepted into a queue.
    static let queuedMarker: UInt8 = 0

    /// Writes the header for `status` (nil: queued) at `at` in the value's first bytes.
    static func writeHeader(status: LogStatus?, at: Int64, into value: UnsafeMutableRawBufferPointer) {
        value[0] = status?.rawValue ?? Self.queuedMarker
        StoreKeys.storeBigEndian(UInt64(bitPattern: at), at: 1, in: value)
    }

    /// The record after the header.
    static func record(of value: UnsafeRawBufferPointer) throws(StoreError) -> UnsafeRawBufferPointer {
        guard value.count > Self.headerSize else { throw .corruptRecord("log entry") }
        return UnsafeRawBufferPointer(rebasing: value[Self.headerSize...])
    }

    /// The status and time the header carries: nil for a notification accepted into a queue.
    static func header(of value: UnsafeRawBufferPointer) throws(StoreError) -> (status: LogStatus, at: Int64)? {
        guard value.count > Self.headerSize else { throw .corruptRecord("log entry") }
        guard value[0] != Self.queuedMarker else { return nil }
        guard let status = LogStatus(rawValue: value[0]) else { throw .corruptRecord("log status") }
        return (status, Int64(bitPattern: value.readBigEndianUInt64(at: 1)))
    }

    /// The notification a log value holds.
    static func decode(_ value: UnsafeRawBufferPointer) throws(StoreError) -> Notification {
        try NotificationCodec.decode(try Self.record(of: value))
    }

    /// The notification a log value holds.
    static func decode(_ value: [UInt8]) throws(StoreError) -> Notification {
        try value.withUnsafeBytes { raw in Result { () throws(StoreError) in try Self.decode(raw) } }.get()
    }
}
