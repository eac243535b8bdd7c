import APNsCore

/// The admin API's JSON of a channel management request or a broadcast in the journal: the
/// fields every journal item has (`token` null, `topic` the bundle id), then what is its own.
enum BroadcastJSON {
    static func writeFields(of record: BroadcastRecord, detailed: Bool, into members: inout JSONWriter.Members) {
        members.member("apnsId") { $0.raw("null") }
        members.member("uniqueId") { $0.optionalString(record.operation == "publish" && record.reason == nil ? record.id : nil) }
        members.member("token") { $0.raw("null") }
        if let path = record.path { members.member("path") { $0.string(path) } }
        members.member("topic") { $0.optionalString(record.bundleID) }
        members.member("pushType") { $0.optionalString(record.pushType) }
        let priority = record.priority.flatMap { Int($0) }
        let expiration = record.expiration.flatMap { Int64($0) }
        members.member("priority") { writer in if let priority { writer.number(priority) } else { writer.raw("null") } }
        members.member("expiration") { writer in if let expiration { writer.number(expiration) } else { writer.raw("null") } }
        members.member("collapseId") { $0.raw("null") }
        let payload = JSONObjectValidator.problem(in: record.body) == nil ? String(decoding: record.body, as: UTF8.self) : "null"
        members.member("payload") { $0.raw(record.body.isEmpty ? "null" : payload) }
        members.member("body") { $0.string(String(decoding: record.body, as: UTF8.self)) }
        members.member("method") { $0.optionalString(record.method) }
        members.member("operation") { $0.optionalString(record.operation) }
        members.member("requestId") { $0.optionalString(record.requestID) }
        members.member("channelId") { $0.optionalString(record.channelID) }
        members.member("reason") { $0.optionalString(record.reason) }
        members.member("httpStatus") { $0.number(record.httpStatus) }
        members.member("detail") { $0.optionalString(record.detail) }
        members.member("port") { writer in if let port = record.port { writer.number(port) } else { writer.raw("null") } }
        members.member("fanOut") { writer in if let fanOut = record.fanOut { writer.number(fanOut) } else { writer.raw("null") } }
        members.member("stored") { writer in
            if let stored = record.stored { writer.raw(stored ? "true" : "false") } else { writer.raw("null") }
        }
        guard detailed, record.fanOut != nil else { return }
        members.member("outcomes") { writer in
            writer.array(record.outcomes) { writer, outcome in
                writer.object { fields in
                    fields.member("deviceId") { $0.string(outcome.deviceID) }
                    fields.member("activityId") { $0.string(outcome.activityID) }
                    fields.member("outcome") { $0.string(outcome.outcome) }
                    fields.member("code") { $0.optionalString(outcome.code) }
                    fields.member("reason") { $0.optionalString(outcome.reason) }
                }
            }
        }
    }
}
