import APNsCore

/// Encodes a ``Notification`` into the store's record bytes and back.
///
/// Layout (version 3): version u8 · the assumed headers u8 (``AssumedHeaders``; version 1 had
/// none) · the environment u8 (0 development, 1 production; versions 1 and 2, development) · priority u8 · expiration i64 (`Int64.min` = header omitted) · receivedAt i64 ·
/// source, apnsID, uniqueID, token, pushType as u8-length strings/bytes ·
/// topic and collapseID as u16 length with 0xFFFF for "absent" · payload as u32 length.
enum NotificationCodec {
    static let version: UInt8 = 3
    static let absent: UInt16 = 0xFFFF
    private static let noExpiration = Int64.min

    /// The record's size in bytes.
    static func size(of notification: Notification) -> Int {
        let short =
            min(notification.source.rawValue.utf8.count, 255) + min(notification.apnsID.utf8.count, 255)
            + min(notification.uniqueID.utf8.count, 255) + min(notification.pushType.rawValue.utf8.count, 255)
        let topic = notification.topic.map { min($0.utf8.count, Int(self.absent) - 1) } ?? 0
        let collapseID = notification.collapseID.map { min($0.utf8.count, Int(self.absent) - 1) } ?? 0
        return 20 + 5 + short + min(notification.token.bytes.count, 255) + 4 + topic + collapseID + 4 + notification.payload.count
    }

    static func encode(_ notification: Notification) -> [UInt8] {
        let size = self.size(of: notification)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            self.encode(notification, into: UnsafeMutableRawBufferPointer(buffer))
            count = size
        }
    }

    /// Writes the record into `out`, which holds exactly ``size(of:)`` bytes (the store's page
    /// itself, on the accept path: the record is encoded once, where it is kept). Each field's
    /// UTF-8 is copied in place, with no intermediate arrays.
    static func encode(_ notification: Notification, into out: UnsafeMutableRawBufferPointer) {
        var writer = Writer(out: out)
        writer.byte(self.version)
        writer.byte(notification.assumed.rawValue)
        writer.byte(notification.environment == .production ? 1 : 0)
        writer.byte(notification.priority.rawValue)
        writer.uint64(UInt64(bitPattern: notification.expiration ?? self.noExpiration))
        writer.uint64(UInt64(bitPattern: notification.receivedAt))
        writer.short(notification.source.rawValue)
        writer.short(notification.apnsID)
        writer.short(notification.uniqueID)
        notification.token.bytes.withUnsafeBytes { writer.short($0) }
        writer.short(notification.pushType.rawValue)
        writer.optional(notification.topic)
        writer.optional(notification.collapseID)
        writer.uint32(UInt32(notification.payload.count))
        notification.payload.withUnsafeBytes { writer.bytes($0) }
    }

    /// Writes a record's fields in order into memory of the right size.
    private struct Writer {
        let out: UnsafeMutableRawBufferPointer
        var offset = 0

        mutating func byte(_ value: UInt8) {
            self.out[self.offset] = value
            self.offset += 1
        }

        mutating func uint64(_ value: UInt64) {
            for shift in stride(from: 56, through: 0, by: -8) { self.byte(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }

        mutating func uint32(_ value: UInt32) {
            for shift in stride(from: 24, through: 0, by: -8) { self.byte(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }

        mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress, !bytes.isEmpty, let target = self.out.baseAddress else { return }
            (target + self.offset).copyMemory(from: source, byteCount: bytes.count)
            self.offset += bytes.count
        }

        mutating func short(_ bytes: UnsafeRawBufferPointer) {
            let kept = UnsafeRawBufferPointer(rebasing: bytes.prefix(255))
            self.byte(UInt8(kept.count))
            self.bytes(kept)
        }

        mutating func short(_ string: String) {
            var string = string
            string.withUTF8 { self.short(UnsafeRawBufferPointer($0)) }
        }

        mutating func optional(_ string: String?) {
            guard var string else {
                self.byte(UInt8(NotificationCodec.absent >> 8))
                self.byte(UInt8(NotificationCodec.absent & 0xFF))
                return
            }
            string.withUTF8 { utf8 in
                let kept = UnsafeRawBufferPointer(
                    rebasing: UnsafeRawBufferPointer(utf8).prefix(Int(NotificationCodec.absent) - 1))
                self.byte(UInt8(kept.count >> 8))
                self.byte(UInt8(kept.count & 0xFF))
                self.bytes(kept)
            }
        }
    }

    static func decode(_ bytes: [UInt8]) throws(StoreError) -> Notification {
        try bytes.withUnsafeBytes { raw in Result { () throws(StoreError) in try self.decode(raw) } }.get()
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> Notification {
        var reader = Reader(bytes: bytes)
        let (assumed, environment) = try reader.header()
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
            receivedAt: receivedAt, source: source, assumed: assumed, environment: environment
        )
    }

    /// A record's topic and collapse id, in place (nil when absent), without decoding the rest.
    static func topicAndCollapseID(
        of bytes: UnsafeRawBufferPointer
    ) throws(StoreError) -> (topic: UnsafeRawBufferPointer?, collapseID: UnsafeRawBufferPointer?) {
        let queued = try self.queued(of: bytes)
        return (queued.topic, queued.collapseID)
    }

    /// What a new notification's replacement compares with each one its device has queued (topic,
    /// collapse id) and what taking one out of its queue and indexes needs, read in one pass, in
    /// place: the slices point into `bytes` and live no longer than it does.
    struct QueuedView {
        let priority: Priority
        /// Its expiration (nil: none given) and time of acceptance, for its expiry key.
        let expiration: Int64?
        let receivedAt: Int64
        /// Its unique id's UTF-8: its key in the unique-id index.
        let uniqueID: UnsafeRawBufferPointer
        let pushType: UnsafeRawBufferPointer
        let topic: UnsafeRawBufferPointer?
        let collapseID: UnsafeRawBufferPointer?

        /// What outlives the record: the fields its removal needs, the unique id copied.
        func fields() throws(StoreError) -> QueuedFields {
            guard let pushType = PushType(rawValue: String(decoding: self.pushType, as: UTF8.self)) else {
                throw .corruptRecord("push type")
            }
            return QueuedFields(
                priority: self.priority, pushType: pushType, expiration: self.expiration, receivedAt: self.receivedAt,
                uniqueID: Array(self.uniqueID))
        }
    }

    /// A queued record's removal, decoded from its ``QueuedView``: a replacement, under the default
    /// storage policy, takes one out for nearly every notification an offline device gets.
    struct QueuedFields {
        let priority: Priority
        let pushType: PushType
        let expiration: Int64?
        let receivedAt: Int64
        let uniqueID: [UInt8]
    }

    static func queued(of bytes: UnsafeRawBufferPointer) throws(StoreError) -> QueuedView {
        var reader = Reader(bytes: bytes)
        _ = try reader.header()
        guard let priority = Priority(rawValue: try reader.byte()) else { throw .corruptRecord("priority") }
        let storedExpiration = Int64(bitPattern: try reader.uint64())
        let receivedAt = Int64(bitPattern: try reader.uint64())
        for _ in 0..<2 { _ = try reader.slice(Int(try reader.byte())) }  // source, apnsID
        let uniqueID = try reader.slice(Int(try reader.byte()))
        _ = try reader.slice(Int(try reader.byte()))  // token
        let pushType = try reader.slice(Int(try reader.byte()))
        let topic = try reader.optionalSlice()
        return QueuedView(
            priority: priority, expiration: storedExpiration == self.noExpiration ? nil : storedExpiration,
            receivedAt: receivedAt, uniqueID: uniqueID, pushType: pushType, topic: topic,
            collapseID: try reader.optionalSlice())
    }

    /// Reads a record's fields in order, in place: scalars and strings straight from the bytes,
    /// with no array per field (a start-up reads every record the store holds).
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        /// The next `count` bytes, in place.
        mutating func slice(_ count: Int) throws(StoreError) -> UnsafeRawBufferPointer {
            guard count >= 0, self.offset + count <= self.bytes.count else { throw .corruptRecord("truncated") }
            defer { self.offset += count }
            return UnsafeRawBufferPointer(rebasing: self.bytes[self.offset..<(self.offset + count)])
        }

        mutating func bytes(_ count: Int) throws(StoreError) -> [UInt8] { Array(try self.slice(count)) }

        /// The version byte, the assumed headers after it (none in a version-1 record) and the
        /// environment (development before version 3).
        mutating func header() throws(StoreError) -> (AssumedHeaders, APNsEnvironment) {
            switch try self.byte() {
            case 1: return ([], .development)
            case 2: return (AssumedHeaders(rawValue: try self.byte()), .development)
            case NotificationCodec.version:
                let assumed = AssumedHeaders(rawValue: try self.byte())
                switch try self.byte() {
                case 0: return (assumed, .development)
                case 1: return (assumed, .production)
                default: throw .corruptRecord("environment")
                }
            default: throw .corruptRecord("unknown record version")
            }
        }

        /// Where a record of this version byte has its priority: after the version, the
        /// assumed headers (from version 2) and the environment (from version 3).
        static func fieldsStart(version: UInt8) -> Int? {
            switch version {
            case 1: 1
            case 2: 2
            case NotificationCodec.version: 3
            default: nil
            }
        }

        mutating func byte() throws(StoreError) -> UInt8 { try self.slice(1)[0] }

        mutating func uint16() throws(StoreError) -> UInt16 {
            UInt16(truncatingIfNeeded: try self.integer(2))
        }

        mutating func uint32() throws(StoreError) -> UInt32 {
            UInt32(truncatingIfNeeded: try self.integer(4))
        }

        mutating func uint64() throws(StoreError) -> UInt64 { try self.integer(8) }

        private mutating func integer(_ count: Int) throws(StoreError) -> UInt64 {
            try self.slice(count).reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func shortString() throws(StoreError) -> String {
            String(decoding: try self.slice(Int(try self.byte())), as: UTF8.self)
        }

        mutating func optionalString() throws(StoreError) -> String? {
            guard let field = try self.optionalSlice() else { return nil }
            return String(decoding: field, as: UTF8.self)
        }

        /// A u16-length field in place; nil when marked absent.
        mutating func optionalSlice() throws(StoreError) -> UnsafeRawBufferPointer? {
            let length = try self.uint16()
            if length == NotificationCodec.absent { return nil }
            return try self.slice(Int(length))
        }
    }
}
