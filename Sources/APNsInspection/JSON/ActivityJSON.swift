import APNsCore
import APNsDevice

/// The admin API's JSON of Live Activities: `GET /api/v1/devices/<token>/activities` and
/// `GET /api/v1/activities/<id>`. Times are RFC 3339; names are ActivityKit's and the payload's.
public enum ActivityJSON {
    /// An app's activities, in the order the system shows them (running first, by relevance).
    /// With `app`, each activity says where it shows on the device's paired surfaces (`surfaces`).
    public static func list(
        _ activities: [LiveActivity], topic: String, deviceID: String, pushToStartToken: String?, app: AppModel? = nil
    ) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("topic") { $0.string(topic) }
            members.member("deviceId") { $0.string(deviceID) }
            members.member("pushToStartToken") { $0.optionalString(pushToStartToken) }
            members.member("total") { $0.number(activities.count) }
            members.member("items") { items in
                items.array(activities) { writer, activity in
                    Self.write(activity, topic: topic, deviceID: deviceID, surfaces: app?.surfaces(of: activity), into: &writer)
                }
            }
        }
        return writer.bytes
    }

    public static func one(
        _ activity: LiveActivity, topic: String, deviceID: String, history: Bool = true, app: AppModel? = nil
    ) -> [UInt8] {
        var writer = JSONWriter()
        Self.write(
            activity, topic: topic, deviceID: deviceID, history: history, surfaces: app?.surfaces(of: activity), into: &writer)
        return writer.bytes
    }

    /// Writes one activity into `writer` (a document that holds it, without a copy of its bytes).
    public static func write(
        _ activity: LiveActivity, topic: String, deviceID: String, history: Bool = true, surfaces: [SurfacePresentation]? = nil,
        into writer: inout JSONWriter
    ) {
        func time(_ millis: Int64?) -> (inout JSONWriter) -> Void {
            { writer in if let millis { writer.string(Timestamp.rfc3339(millis: millis)) } else { writer.raw("null") } }
        }
        writer.object { members in
            members.member("id") { $0.string(activity.id) }
            members.member("type") { $0.string(activity.attributesType) }
            members.member("topic") { $0.string(topic) }
            members.member("deviceId") { $0.string(deviceID) }
            members.member("attributes") { PhoneJSON.write(activity.attributes, into: &$0) }
            members.member("contentState") { PhoneJSON.write(activity.contentState, into: &$0) }
            members.member("activityState") { $0.string(activity.activityState.rawValue) }
            members.member("staleDate", time(activity.staleDate))
            members.member("dismissalDate", time(activity.dismissalDate))
            members.member("relevanceScore") { PhoneJSON.write(activity.relevanceScore, into: &$0) }
            members.member("updateToken") { $0.optionalString(activity.updateToken) }
            members.member("channelId") { $0.optionalString(activity.channelID) }
            members.member("startedBy") { $0.string(activity.startedBy) }
            members.member("startedAt", time(activity.startedAt))
            members.member("endedAt", time(activity.endedAt))
            members.member("timestamp") { PhoneJSON.write(activity.lastTimestamp, into: &$0) }
            members.member("alert") { $0.raw(PhoneJSON.encoded(activity.alert)) }
            members.member("alertedAt", time(activity.alertedAt))
            members.member("style") { $0.string((activity.style ?? .standard).rawValue) }
            members.member("scheduledStart", time(activity.scheduledStart))
            members.member("alertConfiguration") { $0.raw(PhoneJSON.encoded(activity.startAlert)) }
            if let surfaces {
                members.member("surfaces") { items in
                    items.array(surfaces) { writer, surface in
                        writer.object { fields in
                            fields.member("surface") { $0.string(surface.surface.rawValue) }
                            fields.member("family") { $0.string(surface.family.rawValue) }
                            fields.member("shown") { $0.raw(surface.shown ? "true" : "false") }
                            fields.member("reason") { $0.optionalString(surface.reason) }
                        }
                    }
                }
            }
            guard history else { return }
            members.member("history") { items in
                items.array(activity.history) { writer, item in
                    writer.object { fields in
                        fields.member("at", time(item.at))
                        fields.member("event") { $0.string(item.event) }
                        fields.member("outcome") { $0.string(item.outcome) }
                        fields.member("code") { $0.optionalString(item.code) }
                        fields.member("reason") { $0.optionalString(item.reason) }
                        fields.member("uniqueId") { $0.optionalString(item.uniqueID) }
                        fields.member("priority") { writer in
                            if let priority = item.priority { writer.number(priority) } else { writer.raw("null") }
                        }
                    }
                }
            }
        }
    }
}
