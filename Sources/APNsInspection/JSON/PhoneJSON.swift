import APNsCore
import APNsDevice
import Foundation

/// The admin API's JSON of the emulated phone: apps, presentations, responses.
public enum PhoneJSON {
    /// A value's JSON text (`null` for nil), keys sorted so the same value reads the same.
    /// A JSON value as ``encoded(_:)`` writes it (keys sorted, slashes as they are), without a
    /// `JSONEncoder`: an activity's attributes and content state go into every document about it,
    /// and a broadcast writes one for each of thousands of activities.
    static func write(_ value: JSONValue, into writer: inout JSONWriter) {
        switch value {
        case .null: writer.raw("null")
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .number(let number): if number.isFinite { writer.number(number) } else { writer.raw("null") }
        case .string(let text): writer.string(text)
        case .array(let items): writer.array(items) { writer, item in Self.write(item, into: &writer) }
        case .object(let members):
            writer.object { fields in
                for key in members.keys.sorted() {
                    if let item = members[key] { fields.member(key) { Self.write(item, into: &$0) } }
                }
            }
        }
    }

    /// A number, or `null` for none (or one JSON cannot write).
    static func write(_ number: Double?, into writer: inout JSONWriter) {
        if let number, number.isFinite { writer.number(number) } else { writer.raw("null") }
    }

    public static func encoded<T: Encodable>(_ value: T?) -> String {
        guard let value else { return "null" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // The phone's values are plain strings, numbers and flags: this cannot happen, but
            // say so rather than send a broken document.
            return #"{"error": "could not encode \#(T.self)"}"#
        }
    }

    /// An app as `GET /api/v1/devices/<token>/app` shows it.
    public static func app(_ app: AppModel, token: String, topic: String, deviceID: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("token") { $0.string(token) }
            members.member("topic") { $0.string(topic) }
            members.member("deviceId") { $0.string(deviceID) }
            members.member("authorization") { $0.raw(Self.encoded(app.authorization)) }
            members.member("notificationSettings") { $0.raw(Self.encoded(NotificationSettings(app))) }
            members.member("entitlements") { $0.array(app.entitlements.sorted()) { $0.string($1.rawValue) } }
            members.member("focus") { $0.raw(Self.encoded(app.focus)) }
            members.member("backgroundAppRefresh") { $0.raw(app.backgroundPushes.refresh ? "true" : "false") }
            members.member("forceQuit") { $0.raw(app.backgroundPushes.forceQuit ? "true" : "false") }
            members.member("backgroundPushBudget") { $0.number(app.backgroundPushes.perHour) }
            members.member("reportsCalls") { $0.raw(app.voipPushes.reportsCalls ? "true" : "false") }
            members.member("summaryTimes") { $0.array(app.summaryTimes) { $0.string($1) } }
            members.member("serviceExtension") { $0.raw(Self.encoded(app.serviceExtension)) }
            members.member("categories") { $0.raw(Self.encoded(app.categories)) }
            members.member("appState") { $0.string(app.appState.rawValue) }
            members.member("foregroundOptions") { $0.raw(Self.encoded(app.foregroundOptions)) }
            members.member("alertStyle") { $0.string(app.alertStyle.rawValue) }
            members.member("language") { $0.string(app.language) }
            members.member("timeZone") { $0.string(app.timeZone) }
            members.member("locationAuthorization") { $0.string(app.locationAuthorization.rawValue) }
            members.member("location") { $0.raw(Self.encoded(app.location)) }
            members.member("strings") { $0.raw(Self.encoded(app.strings)) }
            members.member("sounds") { $0.raw(Self.encoded(app.sounds)) }
            members.member("badge") { $0.number(app.badge) }
            members.member("delivered") { $0.number(app.delivered.count) }
            members.member("activityTypes") { $0.raw(Self.encoded(app.activityTypes)) }
            members.member("liveActivitiesEnabled") { $0.raw(app.liveActivitiesEnabled ? "true" : "false") }
            members.member("frequentUpdates") { $0.raw(Self.encoded(app.frequentUpdates)) }
            members.member("iosVersion") { $0.string(app.iosVersion) }
            members.member("platform") { $0.string(app.platform.rawValue) }
            members.member("pairedSurfaces") { $0.array(app.pairedSurfaces) { $0.string($1.rawValue) } }
            members.member("pushToStartToken") { $0.optionalString(app.pushToStartToken) }
            members.member("activities") { $0.number(app.activities.filter(\.isRunning).count) }
            members.member("widgetPushes") { $0.raw(Self.encoded(app.widgetPushes)) }
            members.member("controlPushes") { $0.raw(Self.encoded(app.controlPushes)) }
        }
        return writer.bytes
    }

    /// Notification Center, oldest first, as `GET /api/v1/devices/<token>/delivered` shows it.
    public static func delivered(_ delivered: [DeliveredNotification]) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("total") { $0.number(delivered.count) }
            // Held for the Scheduled Summary: each summary with its notifications, the most
            // relevant first (relevance-score, then the newest), the earliest summary first;
            // presented once the emulator's clock reached it.
            members.member("summaries") { summaries in
                summaries.array(Self.summaries(delivered)) { writer, summary in
                    writer.object { fields in
                        fields.member("at") { $0.string(Timestamp.rfc3339(millis: summary.at)) }
                        fields.member("presented") { $0.raw(summary.presented ? "true" : "false") }
                        fields.member("items") { $0.array(summary.items) { $0.string($1) } }
                    }
                }
            }
            // Notification Center stacks an app's notifications by thread-id (Apple,
            // "threadIdentifier"): each stack with its count, newest first.
            members.member("threads") { threads in
                threads.array(Self.threads(delivered)) { writer, thread in
                    writer.object { fields in
                        fields.member("threadId") { $0.optionalString(thread.id) }
                        fields.member("count") { $0.number(thread.count) }
                        fields.member("summary") { $0.optionalString(thread.summary) }
                        fields.member("newest") { $0.string(thread.newest) }
                    }
                }
            }
            members.member("items") { items in
                items.array(delivered) { writer, notification in
                    writer.object { fields in
                        fields.member("uniqueId") { $0.string(notification.uniqueID) }
                        fields.member("presentedAt") { $0.string(Timestamp.rfc3339(millis: notification.presentedAt)) }
                        fields.member("presentation") { $0.raw(Self.encoded(notification.presentation)) }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The Scheduled Summaries the notifications wait for (or were presented in).
    static func summaries(_ delivered: [DeliveredNotification]) -> [(at: Int64, presented: Bool, items: [String])] {
        let held = Dictionary(grouping: delivered.filter { $0.presentation.summaryAt != nil }) { $0.presentation.summaryAt ?? 0 }
        return held.sorted { $0.key < $1.key }.map { at, notifications in
            let ranked = notifications.sorted {
                ($0.presentation.relevanceScore ?? 0, $0.presentedAt, $0.uniqueID)
                    > ($1.presentation.relevanceScore ?? 0, $1.presentedAt, $1.uniqueID)
            }
            return (at, notifications.allSatisfy(\.presentation.summaryPresented), ranked.map(\.uniqueID))
        }
    }

    /// Notification Center's stacks: one per thread id (nil: the app's notifications without
    /// one), the one with the newest notification first, each with the summary under it.
    static func threads(
        _ delivered: [DeliveredNotification]
    ) -> [(id: String?, count: Int, newest: String, summary: String?)] {
        let stacks = Dictionary(grouping: delivered) { $0.presentation.threadID.flatMap { $0.isEmpty ? nil : $0 } }
            .mapValues { $0.sorted { ($0.presentedAt, $0.uniqueID) > ($1.presentedAt, $1.uniqueID) } }
        let ordered = stacks.compactMap {
            id, items -> (id: String?, items: [DeliveredNotification], newest: DeliveredNotification)? in
            items.first.map { (id, items, $0) }
        }
        .sorted { ($0.newest.presentedAt, $0.newest.uniqueID) > ($1.newest.presentedAt, $1.newest.uniqueID) }
        return ordered.map { ($0.id, $0.items.count, $0.newest.uniqueID, Presenter.stackSummary($0.items.map(\.presentation))) }
    }
}
