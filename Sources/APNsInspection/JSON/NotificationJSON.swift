import APNsCore

/// The one JSON shape of a notification, shared by the admin API and `apns-emulator device`.
public enum NotificationJSON {
    /// One notification as a JSON object, on one line.
    public static func line(_ notification: Notification) -> String {
        var writer = JSONWriter()
        self.write(notification, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    public static func write(_ notification: Notification, into writer: inout JSONWriter) {
        writer.object { members in
            self.writeFields(of: notification, into: &members)
            members.member("receivedAt") { $0.string(Timestamp.rfc3339(millis: notification.receivedAt)) }
            members.member("source") { $0.string(notification.source.rawValue) }
        }
    }

    /// The notification as sent, from `apnsId` to `payload`: shared with the journal's items.
    public static func writeFields(of notification: Notification, into members: inout JSONWriter.Members) {
        members.member("apnsId") { $0.string(notification.apnsID) }
        members.member("uniqueId") { $0.string(notification.uniqueID) }
        members.member("token") { $0.string(notification.token.hex) }
        members.member("environment") { $0.string(notification.environment.rawValue) }
        members.member("topic") { $0.optionalString(notification.topic) }
        members.member("pushType") { $0.string(notification.pushType.rawValue) }
        members.member("priority") { $0.number(notification.priority.rawValue) }
        members.member("expiration") { writer in
            if let expiration = notification.expiration { writer.number(expiration) } else { writer.raw("null") }
        }
        members.member("collapseId") { $0.optionalString(notification.collapseID) }
        members.member("payload") { $0.raw(notification.payload) }
        members.member("assumed") { writer in writer.array(notification.assumed.names) { $0.string($1) } }
    }
}
