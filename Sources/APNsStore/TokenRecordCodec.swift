import APNsCore

/// Encodes token records and feedback entries; layouts in `StoreKeys`.
enum TokenRecordCodec {
    private static let none = Int64.min

    /// topic (u16 length) · deviceID flag u8 + u16 length · registeredAt i64 · unregisteredAt i64
    /// (`Int64.min` = valid) · environment u8 (1 production; a record without it, written before
    /// the emulator served both, is development's)
    static func encode(_ record: TokenRecord) -> [UInt8] {
        var out: [UInt8] = []
        self.appendString(&out, record.topic)
        if let deviceID = record.deviceID {
            out.append(1)
            self.appendString(&out, deviceID)
        } else {
            out.append(0)
        }
        out.appendBigEndian(UInt64(bitPattern: record.registeredAt))
        out.appendBigEndian(UInt64(bitPattern: record.unregisteredAt ?? self.none))
        out.append(record.environment == .production ? 1 : 0)
        return out
    }

    static func decode(token: DeviceToken, _ bytes: [UInt8]) throws(StoreError) -> TokenRecord {
        try bytes.withUnsafeBytes { raw in Result { () throws(StoreError) in try self.decode(token: token, raw) } }.get()
    }

    static func decode(token: DeviceToken, _ raw: UnsafeRawBufferPointer) throws(StoreError) -> TokenRecord {
        var reader = NotificationCodec.Reader(bytes: raw)
        let topic = String(decoding: try reader.bytes(Int(try reader.uint16())), as: UTF8.self)
        let deviceID: String? =
            try reader.byte() == 1 ? String(decoding: try reader.bytes(Int(try reader.uint16())), as: UTF8.self) : nil
        let registeredAt = Int64(bitPattern: try reader.uint64())
        let unregistered = Int64(bitPattern: try reader.uint64())
        let production = reader.offset < raw.count ? try reader.byte() == 1 : false
        let environment: APNsEnvironment = production ? .production : .development
        return TokenRecord(
            token: token, topic: topic, deviceID: deviceID, registeredAt: registeredAt,
            unregisteredAt: unregistered == self.none ? nil : unregistered, environment: environment
        )
    }

    /// at i64 · topic (u16 length)
    static func encodeFeedback(at: Int64, topic: String) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBigEndian(UInt64(bitPattern: at))
        self.appendString(&out, topic)
        return out
    }

    static func decodeFeedback(token: DeviceToken, _ bytes: UnsafeRawBufferPointer) throws(StoreError) -> FeedbackEntry {
        var reader = NotificationCodec.Reader(bytes: bytes)
        let at = Int64(bitPattern: try reader.uint64())
        let topic = String(decoding: try reader.bytes(Int(try reader.uint16())), as: UTF8.self)
        return FeedbackEntry(token: token, topic: topic, at: at)
    }

    private static func appendString(_ out: inout [UInt8], _ string: String) {
        let bytes = Array(string.utf8.prefix(Int(UInt16.max)))
        out.appendBigEndian(UInt16(bytes.count))
        out.append(contentsOf: bytes)
    }
}
