import APNsCore
import APNsDevice

/// The admin API's JSON of broadcast channels.
public enum ChannelJSON {
    /// One channel: its configuration, when it came (and went), its subscribers now, and its
    /// stored message if it holds one still to be handed out at `now`.
    public static func write(_ channel: BroadcastChannel, subscribers: Int, now: Int64, into writer: inout JSONWriter) {
        writer.object { members in
            members.member("id") { $0.string(channel.id) }
            members.member("bundleId") { $0.string(channel.bundleID) }
            members.member("messageStoragePolicy") { $0.number(channel.storagePolicy) }
            members.member("pushType") { $0.string(channel.pushType) }
            members.member("environment") { $0.optionalString(channel.environment?.rawValue) }
            members.member("createdAt") { $0.string(Timestamp.rfc3339(millis: channel.createdAt)) }
            members.member("deleted") { $0.raw(channel.isDeleted ? "true" : "false") }
            members.member("deletedAt") { writer in
                if let at = channel.deletedAt { writer.string(Timestamp.rfc3339(millis: at)) } else { writer.raw("null") }
            }
            members.member("published") { $0.number(channel.published) }
            members.member("subscribers") { $0.number(subscribers) }
            members.member("storedMessage") { writer in
                guard let message = channel.storedMessage(at: now) else { return writer.raw("null") }
                writer.object { fields in
                    fields.member("uniqueId") { $0.string(message.uniqueID) }
                    fields.member("payload") { $0.raw(message.payload) }
                    fields.member("priority") { $0.number(message.priority) }
                    fields.member("receivedAt") { $0.string(Timestamp.rfc3339(millis: message.receivedAt)) }
                    fields.member("expiresAt") { $0.string(Timestamp.rfc3339(millis: message.expiresAt)) }
                }
            }
        }
    }

    public static func one(_ channel: BroadcastChannel, subscribers: Int, now: Int64) -> [UInt8] {
        var writer = JSONWriter()
        self.write(channel, subscribers: subscribers, now: now, into: &writer)
        return writer.bytes
    }

    /// `{"items": [...]}`.
    public static func list(_ channels: [BroadcastChannel], subscribers: [String: Int], now: Int64) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("items") {
                $0.array(channels) { writer, channel in
                    self.write(channel, subscribers: subscribers[channel.id] ?? 0, now: now, into: &writer)
                }
            }
        }
        return writer.bytes
    }
}
