import APNsCore

/// A rejected request as the store keeps it, so that the journal's refusals survive a restart:
/// a version byte, the time, then each field as a presence byte and a length-prefixed value.
enum RejectedPushCodec {
    static let version: UInt8 = 1

    static func encode(_ push: RejectedPush, fault: FaultMark?) -> [UInt8] {
        var out = RecordFields.start(version: Self.version, time: push.receivedAt, capacity: 64 + push.body.count)
        let texts: [String?] = [
            push.id, push.apnsID, push.token, push.topic, push.pushType, push.priority, push.expiration, push.collapseID,
            push.source.rawValue, push.reason, push.httpStatus.map(String.init), push.statusByte.map { String($0) },
            push.detail, push.path, push.port.map(String.init), fault?.ruleID, fault?.action,
        ]
        for text in texts { RecordFields.field(text, into: &out) }
        RecordFields.field(push.body, into: &out)
        // Later than the body: a record written before environments has 18 fields.
        RecordFields.field(push.environment?.rawValue, into: &out)
        return out
    }

    /// The push and its fault mark; nil for a record this version cannot read.
    static func decode(_ bytes: [UInt8]) -> (push: RejectedPush, fault: FaultMark?)? {
        guard let (receivedAt, fields) = RecordFields.read(bytes, version: Self.version) else { return nil }
        guard fields.count == 18 || fields.count == 19 else { return nil }
        let text = { (index: Int) in fields[index].map { String(decoding: $0, as: UTF8.self) } }
        guard let id = text(0), let source = text(8).flatMap(Interface.init(rawValue:)) else { return nil }
        var push = RejectedPush(
            connectionOn: source, port: text(14).flatMap { Int($0) }, id: id, statusByte: text(11).flatMap { UInt8($0) },
            sent: fields[17] ?? [], detail: text(12) ?? "", receivedAt: receivedAt)
        push.detail = text(12)
        (push.apnsID, push.token, push.topic, push.pushType) = (text(1), text(2) ?? "", text(3), text(4))
        (push.priority, push.expiration, push.collapseID) = (text(5), text(6), text(7))
        (push.reason, push.httpStatus, push.path) = (text(9), text(10).flatMap { Int($0) }, text(13))
        if fields.count == 19 { push.environment = text(18).flatMap(APNsEnvironment.init(rawValue:)) }
        let fault = text(15).map { FaultMark(ruleID: $0, action: text(16) ?? "") }
        return (push, fault)
    }
}
