import Foundation

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

    /// Whether `needle` (lower-case ASCII) occurs in `haystack`, ASCII letters compared without
    /// case. An anchor byte is found with `memchr` (a non-letter, which matches only itself; else
    /// the first letter in each case) and the rest compared there: most records hold no anchor at all.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count, let base = haystack.baseAddress else { return false }
        return needle.withUnsafeBufferPointer { needle in
            func matches(at start: Int) -> Bool {
                for index in 0..<needle.count where Self.lowered(haystack[start + index]) != needle[index] { return false }
                return true
            }
            /// Every place `byte` is at `offset` of a possible match, until one matches.
            func scan(for byte: UInt8, at offset: Int) -> Bool {
                let lastAnchor = haystack.count - needle.count + offset
                var position = offset
                while position <= lastAnchor {
                    guard let hit = memchr(base + position, Int32(byte), lastAnchor - position + 1) else { return false }
                    let found = base.distance(to: UnsafeRawPointer(hit))
                    if matches(at: found - offset) { return true }
                    position = found + 1
                }
                return false
            }
            if let anchor = needle.firstIndex(where: { !Self.isLetter($0) }) { return scan(for: needle[anchor], at: anchor) }
            return scan(for: needle[0], at: 0) || scan(for: needle[0] & ~0x20, at: 0)
        }
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    @inline(__always)
    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}
