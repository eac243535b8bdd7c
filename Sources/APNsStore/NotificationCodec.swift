import APNsCore

/// Encodes a ``Notification`` into the store's record bytes and back.
///
/// Layout (version 1): version u8 · priority u8 · expiration i64 (`Int64.min` = header omitted) · receivedAt i64 ·
/// source, apnsID, uniqueID, token, pushType as u8-length strings/bytes ·
/// topic and collapseID as u16 length with 0xFFFF for "absent" · payload as u32 length.
enum NotificationCodec {
    static let version: UInt8 = 1
    private static let absent: UInt16 = 0xFFFF
    private static let noExpiration = Int64.min

    static func encode(_ notification: Notification) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + notification.payload.count)
        out.append(self.version)
        out.append(notification.priority.rawValue)
        out.appendBigEndian(UInt64(bitPattern: notification.expiration ?? self.noExpiration))
        out.appendBigEndian(UInt64(bitPattern: notification.receivedAt))
        self.appendShort(&out, Array(notification.source.rawValue.utf8))
        self.appendShort(&out, Array(notification.apnsID.utf8))
        self.appendShort(&out, Array(notification.uniqueID.utf8))
        self.appendShort(&out, notification.token.bytes)
        self.appendShort(&out, Array(notification.pushType.rawValue.utf8))
        self.appendOptional(&out, notification.topic)
        self.appendOptional(&out, notification.collapseID)
        out.appendBigEndian(UInt32(notification.payload.count))
        out.append(contentsOf: notification.payload)
        return out
    }

    static func decode(_ bytes: [UInt8]) throws(StoreError) -> Notification {
        try bytes.withUnsafeBytes { raw in Result { () throws(StoreError) in try self.decode(raw) } }.get()
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> Notification {
        var reader = Reader(bytes: bytes)
        guard try reader.byte() == self.version else { throw .corruptRecord("unknown record version") }
        guard let priority = Priority(rawValue: try reader.byte()) else { throw .corruptRecord("priority") }
        let storedExpiration = Int64(bitPattern: try reader.uint64())
        let expiration = storedExpiration == self.noExpiration ? nil : storedExpiration
        let receivedAt = Int64(bitPattern: try reader.uint64())
        guard let source = Interface(rawValue: try reader.shortString()) else { throw .corruptRecord("source") }
        let apnsID = try reader.shortString()
        let uniqueID = try reader.shortString()
        guard let token = DeviceToken(bytes: try reader.bytes(Int(try reader.byte()))) else {
            throw .corruptRecord("token")
        }
        guard let pushType = PushType(rawValue: try reader.shortString()) else { throw .corruptRecord("push type") }
        let topic = try reader.optionalString()
        let collapseID = try reader.optionalString()
        let payload = try reader.bytes(Int(try reader.uint32()))
        return Notification(
            apnsID: apnsID, uniqueID: uniqueID, token: token, topic: topic, pushType: pushType,
            priority: priority, expiration: expiration, collapseID: collapseID, payload: payload,
            receivedAt: receivedAt, source: source
        )
    }

    private static func appendShort(_ out: inout [UInt8], _ bytes: [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: bytes.count))
        out.append(contentsOf: bytes.prefix(255))
    }

    private static func appendOptional(_ out: inout [UInt8], _ string: String?) {
        guard let string else {
            out.appendBigEndian(self.absent)
            return
        }
        let bytes = Array(string.utf8.prefix(Int(self.absent) - 1))
        out.appendBigEndian(UInt16(bytes.count))
        out.append(contentsOf: bytes)
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func bytes(_ count: Int) throws(StoreError) -> [UInt8] {
            guard count >= 0, self.offset + count <= self.bytes.count else { throw .corruptRecord("truncated") }
            defer { self.offset += count }
            return Array(self.bytes[self.offset..<(self.offset + count)])
        }

        mutating func byte() throws(StoreError) -> UInt8 { try self.bytes(1)[0] }

        mutating func uint16() throws(StoreError) -> UInt16 {
            let b = try self.bytes(2)
            return UInt16(b[0]) << 8 | UInt16(b[1])
        }

        mutating func uint32() throws(StoreError) -> UInt32 {
            try self.bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func uint64() throws(StoreError) -> UInt64 {
            try self.bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func shortString() throws(StoreError) -> String {
            String(decoding: try self.bytes(Int(try self.byte())), as: UTF8.self)
        }

        mutating func optionalString() throws(StoreError) -> String? {
            let length = try self.uint16()
            if length == NotificationCodec.absent { return nil }
            return String(decoding: try self.bytes(Int(length)), as: UTF8.self)
        }
    }
}
