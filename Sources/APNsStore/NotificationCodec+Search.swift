/// Looking for text in a record without decoding it: the admin API's `q` over a store's history.
extension NotificationCodec {
    /// Whether `text` (lower-case ASCII) is in the record's unique id, apns-id, push type, topic,
    /// collapse id or payload, compared ASCII case-insensitively: the fields of ``Notification``
    /// the journal's search reads as sent (the token is stored as bytes and looked for apart).
    static func contains(_ text: [UInt8], in record: UnsafeRawBufferPointer) throws(StoreError) -> Bool {
        var reader = Reader(bytes: record)
        guard try reader.byte() == self.version else { throw .corruptRecord("unknown record version") }
        _ = try reader.slice(1 + 8 + 8)  // priority, expiration, receivedAt
        _ = try reader.slice(Int(try reader.byte()))  // source
        let apnsID = try reader.slice(Int(try reader.byte()))
        let uniqueID = try reader.slice(Int(try reader.byte()))
        _ = try reader.slice(Int(try reader.byte()))  // token
        let pushType = try reader.slice(Int(try reader.byte()))
        let topic = try reader.optionalSlice()
        let collapseID = try reader.optionalSlice()
        let payload = try reader.slice(Int(try reader.uint32()))
        return [uniqueID, apnsID, pushType, topic, collapseID, payload].contains { field in
            field.map { Self.find(text, in: $0) } ?? false
        }
    }

    /// Whether `needle` (lower-case ASCII) occurs in `haystack`, ASCII letters compared without case.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        return needle.withUnsafeBufferPointer { needle in
            let last = haystack.count - needle.count
            var start = 0
            while start <= last {
                if Self.lowered(haystack[start]) == first {
                    var matched = 1
                    while matched < needle.count, Self.lowered(haystack[start + matched]) == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                start += 1
            }
            return false
        }
    }

    @inline(__always)
    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}
