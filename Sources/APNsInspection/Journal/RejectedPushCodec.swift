import APNsCore

/// A rejected request as the store keeps it, so that the journal's refusals survive a restart:
/// a version byte, the time, then each field as a presence byte and a length-prefixed value.
enum RejectedPushCodec {
    static let version: UInt8 = 1

    static func encode(_ push: RejectedPush, fault: FaultMark?) -> [UInt8] {
        var out: [UInt8] = [Self.version]
        out.reserveCapacity(64 + push.body.count)
        Self.bigEndian(UInt64(bitPattern: push.receivedAt), bytes: 8, into: &out)
        let texts: [String?] = [
            push.id, push.apnsID, push.token, push.topic, push.pushType, push.priority, push.expiration, push.collapseID,
            push.source.rawValue, push.reason, push.httpStatus.map(String.init), push.statusByte.map { String($0) },
            push.detail, push.path, push.port.map(String.init), fault?.ruleID, fault?.action,
        ]
        for text in texts { Self.field(text.map { Array($0.utf8) }, into: &out) }
        Self.field(push.body, into: &out)
        return out
    }

    private static func field(_ bytes: [UInt8]?, into out: inout [UInt8]) {
        guard let bytes else { return out.append(0) }
        out.append(1)
        Self.bigEndian(UInt64(bytes.count), bytes: 4, into: &out)
        out.append(contentsOf: bytes)
    }

    private static func bigEndian(_ value: UInt64, bytes: Int, into out: inout [UInt8]) {
        for index in (0..<bytes).reversed() { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// The push and its fault mark; nil for a record this version cannot read.
    static func decode(_ bytes: [UInt8]) -> (push: RejectedPush, fault: FaultMark?)? {
        guard bytes.first == Self.version, bytes.count >= 9 else { return nil }
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
        guard fields.count == 18 else { return nil }
        let text = { (index: Int) in fields[index].map { String(decoding: $0, as: UTF8.self) } }
        let receivedAt = bytes[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard let id = text(0), let source = text(8).flatMap(Interface.init(rawValue:)) else { return nil }
        var push = RejectedPush(
            connectionOn: source, port: text(14).flatMap { Int($0) }, id: id, statusByte: text(11).flatMap { UInt8($0) },
            sent: fields[17] ?? [], detail: text(12) ?? "", receivedAt: receivedAt)
        push.detail = text(12)
        (push.apnsID, push.token, push.topic, push.pushType) = (text(1), text(2) ?? "", text(3), text(4))
        (push.priority, push.expiration, push.collapseID) = (text(5), text(6), text(7))
        (push.reason, push.httpStatus, push.path) = (text(9), text(10).flatMap { Int($0) }, text(13))
        let fault = text(15).map { FaultMark(ruleID: $0, action: text(16) ?? "") }
        return (push, fault)
    }
}
