import APNsCore

/// A channel management request or a broadcast as the store keeps it (beside the rejected
/// requests, ``RecordFields``' layout under version 2), so that the journal's broadcasts survive a
/// restart: the request, its answer, its lint, and each subscribed activity's outcome.
enum BroadcastRecordCodec {
    static let version: UInt8 = 2
    /// The fields before the warnings and the outcomes.
    private static let fixedFields = 20

    static func encode(_ record: BroadcastRecord, fault: FaultMark?) -> [UInt8] {
        var out = RecordFields.start(
            version: Self.version, time: record.receivedAt, capacity: 128 + record.body.count + 96 * record.outcomes.count)
        let texts: [String?] = [
            record.id, record.requestID, record.operation, record.method, record.path, record.bundleID, record.channelID,
            record.pushType, record.priority, record.expiration, String(record.httpStatus), record.reason, record.detail,
            record.port.map(String.init), record.fanOut.map(String.init), record.stored.map { $0 ? "1" : "0" },
            fault?.ruleID, fault?.action,
        ]
        for text in texts { RecordFields.field(text, into: &out) }
        RecordFields.field(record.body, into: &out)
        RecordFields.field(String(record.warnings.count), into: &out)
        for warning in record.warnings { RecordFields.field(warning, into: &out) }
        for outcome in record.outcomes {
            for text in [outcome.deviceID, outcome.activityID, outcome.outcome, outcome.code, outcome.reason] {
                RecordFields.field(text, into: &out)
            }
        }
        return out
    }

    /// The record and its fault mark; nil for a record of another kind or version.
    static func decode(_ bytes: [UInt8]) -> (record: BroadcastRecord, fault: FaultMark?)? {
        guard let (receivedAt, fields) = RecordFields.read(bytes, version: Self.version), fields.count >= Self.fixedFields
        else { return nil }
        let text = { (index: Int) in fields[index].map { String(decoding: $0, as: UTF8.self) } }
        guard let id = text(0), let httpStatus = text(10).flatMap({ Int($0) }) else { return nil }
        var record = BroadcastRecord(id: id, receivedAt: receivedAt, httpStatus: httpStatus)
        (record.requestID, record.operation, record.method, record.path) = (text(1), text(2), text(3), text(4))
        (record.bundleID, record.channelID, record.pushType) = (text(5), text(6), text(7))
        (record.priority, record.expiration, record.reason, record.detail) = (text(8), text(9), text(11), text(12))
        (record.port, record.fanOut) = (text(13).flatMap { Int($0) }, text(14).flatMap { Int($0) })
        record.stored = text(15).map { $0 == "1" }
        let fault = text(16).map { FaultMark(ruleID: $0, action: text(17) ?? "") }
        record.body = fields[18] ?? []
        let warnings = text(19).flatMap { Int($0) } ?? 0
        guard warnings >= 0, Self.fixedFields + warnings <= fields.count, (fields.count - Self.fixedFields - warnings) % 5 == 0
        else {
            return nil
        }
        record.warnings = (0..<warnings).compactMap { text(Self.fixedFields + $0) }
        var index = Self.fixedFields + warnings
        while index < fields.count {
            record.outcomes.append(
                BroadcastActivityOutcome(
                    deviceID: text(index) ?? "", activityID: text(index + 1) ?? "", outcome: text(index + 2) ?? "",
                    code: text(index + 3), reason: text(index + 4)))
            index += 5
        }
        return (record, fault)
    }
}
