import APNsCore
import APNsDevice
import Foundation

/// An app's record with its Live Activities written by hand: a broadcast changes every subscribed
/// activity of every app at once, and `JSONEncoder` spent most of a fan-out's CPU writing them
/// (each with up to 100 history entries). The text is what `JSONEncoder` writes for them, member
/// for member, so `JSONDecoder` reads it back with the types' own `Decodable`.
extension AppCodec {
    /// `"activities":[]` as `JSONEncoder` writes an app with none. A quotation mark inside a JSON
    /// string is always escaped, so these bytes can only be the member itself.
    static let emptyActivities = Array(#""activities":[]"#.utf8)

    /// The app's record: its settings through `JSONEncoder`, its activities by hand.
    static func encodeApp(_ app: AppModel) throws(StoreError) -> [UInt8] {
        guard !app.activities.isEmpty, let activities = Self.activitiesJSON(app.activities) else { return try Self.encode(app) }
        var rest = app
        rest.activities = []
        var bytes = try Self.encode(rest)
        guard let start = Self.offset(of: Self.emptyActivities, in: bytes) else { return try Self.encode(app) }
        bytes.replaceSubrange(start..<start + Self.emptyActivities.count, with: Array(#""activities":"#.utf8) + activities)
        return bytes
    }

    /// Where `needle` first starts in `bytes` (Foundation's generic `firstRange(of:)` cost a
    /// tenth of a fan-out).
    static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                guard let base = haystack.baseAddress, let pattern = needle.baseAddress else { return nil }
                var index = 0
                while index <= haystack.count - needle.count {
                    if haystack[index] == first, memcmp(base + index, pattern, needle.count) == 0 { return index }
                    index += 1
                }
                return nil
            }
        }
    }

    /// `[...]` of the activities, or nil when one holds a number JSON cannot write (never from a
    /// payload; the caller then uses `JSONEncoder`, which refuses it with its own error).
    static func activitiesJSON(_ activities: [LiveActivity]) -> [UInt8]? {
        var writer = JSONWriter()
        var finite = true
        writer.array(activities) { writer, activity in
            finite = Self.write(activity, into: &writer) && finite
        }
        return finite ? writer.bytes : nil
    }

    /// One activity, members named as its synthesized `Encodable` names them, nil ones left out.
    private static func write(_ activity: LiveActivity, into writer: inout JSONWriter) -> Bool {
        var finite = activity.relevanceScore.isFinite && (activity.lastTimestamp?.isFinite ?? true)
        writer.object { members in
            members.member("id") { $0.string(activity.id) }
            members.member("attributesType") { $0.string(activity.attributesType) }
            members.member("attributes") { finite = Self.write(activity.attributes, into: &$0) && finite }
            members.member("contentState") { finite = Self.write(activity.contentState, into: &$0) && finite }
            members.member("activityState") { $0.string(activity.activityState.rawValue) }
            if let value = activity.staleDate { members.member("staleDate") { $0.number(value) } }
            if let value = activity.dismissalDate { members.member("dismissalDate") { $0.number(value) } }
            members.member("relevanceScore") { $0.number(activity.relevanceScore) }
            if let value = activity.updateToken { members.member("updateToken") { $0.string(value) } }
            if let value = activity.channelID { members.member("channelID") { $0.string(value) } }
            members.member("startedBy") { $0.string(activity.startedBy) }
            members.member("startedAt") { $0.number(activity.startedAt) }
            if let value = activity.endedAt { members.member("endedAt") { $0.number(value) } }
            if let value = activity.lastTimestamp { members.member("lastTimestamp") { $0.number(value) } }
            if let alert = activity.alert { members.member("alert") { Self.write(alert, into: &$0) } }
            if let value = activity.alertedAt { members.member("alertedAt") { $0.number(value) } }
            members.member("history") { $0.array(activity.history) { writer, item in Self.write(item, into: &writer) } }
            // A scheduled activity's start and the alert it starts with, and its style: the
            // round trip test found them dropped, so a broadcast's write lost a scheduled start.
            if let value = activity.scheduledStart { members.member("scheduledStart") { $0.number(value) } }
            if let alert = activity.startAlert { members.member("startAlert") { Self.write(alert, into: &$0) } }
            if let style = activity.style { members.member("style") { $0.string(style.rawValue) } }
        }
        return finite
    }

    private static func write(_ alert: ActivityAlert, into writer: inout JSONWriter) {
        writer.object { fields in
            if let value = alert.title { fields.member("title") { $0.string(value) } }
            if let value = alert.body { fields.member("body") { $0.string(value) } }
            if let value = alert.sound { fields.member("sound") { $0.string(value) } }
        }
    }

    private static func write(_ item: ActivityHistoryItem, into writer: inout JSONWriter) {
        writer.object { fields in
            fields.member("at") { $0.number(item.at) }
            fields.member("event") { $0.string(item.event) }
            fields.member("outcome") { $0.string(item.outcome) }
            if let value = item.code { fields.member("code") { $0.string(value) } }
            if let value = item.reason { fields.member("reason") { $0.string(value) } }
            if let value = item.uniqueID { fields.member("uniqueId") { $0.string(value) } }
            if let value = item.priority { fields.member("priority") { $0.number(value) } }
        }
    }

    /// A JSON value; false when it holds a number JSON cannot write.
    private static func write(_ value: JSONValue, into writer: inout JSONWriter) -> Bool {
        switch value {
        case .null: writer.raw("null")
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .number(let number):
            guard number.isFinite else { return false }
            writer.number(number)
        case .string(let text): writer.string(text)
        case .array(let items):
            var finite = true
            writer.array(items) { writer, item in finite = Self.write(item, into: &writer) && finite }
            return finite
        case .object(let members):
            var finite = true
            writer.object { fields in
                for (key, item) in members { fields.member(key) { finite = Self.write(item, into: &$0) && finite } }
            }
            return finite
        }
        return true
    }
}
