import Foundation

/// Looking for text in a record without decoding it: the admin API's `q` over a store's history.
extension NotificationCodec {
    /// Whether `text` (lower-case ASCII) is in the record's unique id, apns-id, push type, topic,
    /// collapse id or payload, compared ASCII case-insensitively: the fields of ``Notification``
    /// the journal's search reads as sent (the token is stored as bytes and looked for apart).
    static func contains(_ text: [UInt8], in record: UnsafeRawBufferPointer) throws(StoreError) -> Bool {
        // Offsets by hand rather than ``Reader``: this runs over every record for each search.
        guard record.count > 19, let start = Reader.fieldsStart(version: record[0]) else {
            throw .corruptRecord("unknown record version")
        }
        var offset = start + 17  // version, (the assumed headers, the environment,) priority, expiration, receivedAt
        func short() throws(StoreError) -> UnsafeRawBufferPointer {
            guard offset < record.count else { throw .corruptRecord("truncated") }
            return try field(Int(record[offset]), after: 1)
        }
        func optional() throws(StoreError) -> UnsafeRawBufferPointer? {
            guard offset + 2 <= record.count else { throw .corruptRecord("truncated") }
            let length = Int(record[offset]) << 8 | Int(record[offset + 1])
            guard length != Int(self.absent) else {
                offset += 2
                return nil
            }
            return try field(length, after: 2)
        }
        func field(_ length: Int, after header: Int) throws(StoreError) -> UnsafeRawBufferPointer {
            let start = offset + header
            guard start + length <= record.count else { throw .corruptRecord("truncated") }
            offset = start + length
            return UnsafeRawBufferPointer(rebasing: record[start..<offset])
        }
        _ = try short()  // source
        let apnsID = try short()
        let uniqueID = try short()
        _ = try short()  // token
        let pushType = try short()
        let topic = try optional()
        let collapseID = try optional()
        guard offset + 4 <= record.count else { throw .corruptRecord("truncated") }
        let length = (0..<4).reduce(0) { $0 << 8 | Int(record[offset + $1]) }
        let payload = try field(length, after: 4)
        return Self.find(text, in: payload) || Self.find(text, in: uniqueID) || Self.find(text, in: apnsID)
            || Self.find(text, in: pushType) || topic.map { Self.find(text, in: $0) } == true
            || collapseID.map { Self.find(text, in: $0) } == true
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
