import APNsCore

/// The admin API's JSON of device tokens and of the feedback list.
public enum DeviceJSON {
    /// One token: its app, device, whether a device holds it now, its queue length and its dates
    /// (`null` when unknown: a token that only has a queue was never registered here). `phone`: the
    /// emulator's own phone takes its pushes (a device a seed declared, no device attached).
    public static func write(
        _ record: TokenRecord, connected: Bool, phone: Bool = false, queued: Int, into writer: inout JSONWriter
    ) {
        writer.object { members in
            members.member("token") { $0.string(record.token.hex) }
            members.member("topic") { $0.optionalString(record.topic.isEmpty ? nil : record.topic) }
            members.member("deviceId") { $0.optionalString(record.deviceID) }
            // A token that only has a queue (never registered here) belongs to no environment.
            members.member("environment") { $0.optionalString(record.registeredAt > 0 ? record.environment.rawValue : nil) }
            members.member("connected") { $0.raw(connected ? "true" : "false") }
            members.member("phone") { $0.raw(phone ? "true" : "false") }
            members.member("queued") { $0.number(queued) }
            members.member("registeredAt") { $0.optionalTime(record.registeredAt > 0 ? record.registeredAt : nil) }
            members.member("unregisteredAt") { $0.optionalTime(record.unregisteredAt) }
            members.member("unregisteredAtMs") { writer in
                if let at = record.unregisteredAt { writer.number(at) } else { writer.raw("null") }
            }
        }
    }

    /// One feedback tuple as the feedback service would send it, with its time in both forms.
    public static func write(_ entry: FeedbackEntry, into writer: inout JSONWriter) {
        writer.object { members in
            members.member("token") { $0.string(entry.token.hex) }
            members.member("topic") { $0.string(entry.topic) }
            members.member("time") { $0.number(entry.at / 1000) }
            members.member("unregisteredAt") { $0.string(Timestamp.rfc3339(millis: entry.at)) }
            members.member("unregisteredAtMs") { $0.number(entry.at) }
        }
    }

    /// `{"token", "topic"}` of a token just issued.
    public static func registered(_ token: DeviceToken, topic: String, environment: APNsEnvironment = .development) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("token") { $0.string(token.hex) }
            members.member("topic") { $0.string(topic) }
            members.member("environment") { $0.string(environment.rawValue) }
        }
        return writer.bytes
    }

    /// `{"token", "unregisteredAt", "unregisteredAtMs"}` of a token just unregistered: the time as
    /// everywhere else (RFC 3339), and in milliseconds, as a 410's `timestamp` says it.
    public static func unregistered(_ token: DeviceToken, at timestamp: Int64) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("token") { $0.string(token.hex) }
            members.member("unregisteredAt") { $0.string(Timestamp.rfc3339(millis: timestamp)) }
            members.member("unregisteredAtMs") { $0.number(timestamp) }
        }
        return writer.bytes
    }
}
