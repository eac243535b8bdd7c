/// The layout the journal's kept records share (``RejectedPushCodec``, ``BroadcastRecordCodec``):
/// a version byte, the time as eight bytes, then each field as a presence byte and a
/// length-prefixed value.
enum RecordFields {
    /// A record's start: `version`, then `time`.
    static func start(version: UInt8, time: Int64, capacity: Int) -> [UInt8] {
        var out: [UInt8] = [version]
        out.reserveCapacity(capacity)
        Self.bigEndian(UInt64(bitPattern: time), bytes: 8, into: &out)
        return out
    }

    static func field(_ bytes: [UInt8]?, into out: inout [UInt8]) {
        guard let bytes else { return out.append(0) }
        out.append(1)
        Self.bigEndian(UInt64(bytes.count), bytes: 4, into: &out)
        out.append(contentsOf: bytes)
    }

    static func field(_ text: String?, into out: inout [UInt8]) {
        Self.field(text.map { Array($0.utf8) }, into: &out)
    }

    private static func bigEndian(_ value: UInt64, bytes: Int, into out: inout [UInt8]) {
        for index in (0..<bytes).reversed() { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// The time and the fields of a record of `version`; nil for one of another version or cut short.
    static func read(_ bytes: [UInt8], version: UInt8) -> (time: Int64, fields: [[UInt8]?])? {
        guard bytes.first == version, bytes.count >= 9 else { return nil }
        var offset = 9
        var fields: [[UInt8]?] = []
        while offset < bytes.count {
            let present = bytes[offset]
            offset += 1
            guard present == 1 else {
                fields.append(nil)
                continue
            }
            guard offset + 4 <= bytes.count else { return nil }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard offset + length <= bytes.count else { return nil }
            fields.append(Array(bytes[offset..<offset + length]))
            offset += length
        }
        return (bytes[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }, fields)
    }
}
