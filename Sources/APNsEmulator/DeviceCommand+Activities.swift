import APNsCore
import APNsDeviceClient
import APNsInspection
import Foundation

/// Live Activities in `apns-emulator device`: typed `activities`, `start`, `end`, and the lines
/// printed for tokens and activity changes.
extension DeviceCommand {
    func performForActivities(
        _ verb: String, _ words: [String], _ command: String, on client: DeviceClient, topic: String
    ) async throws {
        switch verb {
        case "activities":
            let activities = try await client.activities(topic: topic)
            say(#"{"activities":["# + activities.map(Self.json).joined(separator: ",") + "]}")
        case "start":
            let argument = command.drop { $0 == " " }.dropFirst(verb.count).trimmingCharacters(in: .whitespaces)
            let text = argument.hasPrefix("{") ? argument : try String(contentsOfFile: argument, encoding: .utf8)
            // Its token and its start print as the events that tell them, like a pushed start's.
            _ = try await client.startActivity(topic: topic, document: Array(text.utf8))
        default:
            let rest = words.dropFirst(2).joined(separator: " ")
            // An id may be shortened to a prefix of one of the app's activities, as printed.
            let ids = try await client.activities(topic: topic).map(\.id)
            let id = try Self.resolve(words[1], seen: ids, none: "the app has no activity %@")
            _ = try await client.endActivity(topic: topic, id: id, document: Array((rest.isEmpty ? "{}" : rest).utf8))
        }
    }

    /// Prints what the phone did that has a line of its own (a presentation is printed with its
    /// notification; an app change is not printed).
    static func print(_ event: DeviceEvent) {
        switch event {
        case .response(let response): say(#"{"response":"# + PhoneJSON.encoded(response) + "}")
        case .activity(_, let change, let reason, let activity): say(Self.activityLine(change, reason: reason, activity))
        case .activityToken(_, let activityID, let token): say(Self.tokenLine(activityID: activityID, token: token))
        case .power(let power):
            say(#"{"power":{"online":\#(power.online),"lowPowerMode":\#(power.lowPowerMode),"locked":\#(power.locked)}}"#)
        case .presented, .app, .extend: break
        }
    }

    static func activityLine(_ change: String, reason: String?, _ activity: ActivitySnapshot) -> String {
        #"{"activity":{"change":\#(Self.quoted(change)),"reason":\#(reason.map(Self.quoted) ?? "null"),"activity":\#(Self.json(activity))}}"#
    }

    static func tokenLine(activityID: String?, token: DeviceToken) -> String {
        #"{"activityToken":{"activityId":\#(activityID.map(Self.quoted) ?? "null"),"kind":"\#(activityID == nil ? "pushToStart" : "update")","token":"\#(token.hex)"}}"#
    }

    static func json(_ activity: ActivitySnapshot) -> String {
        var writer = JSONWriter()
        writer.object { members in
            members.member("id") { $0.string(activity.id) }
            members.member("type") { $0.string(activity.type) }
            members.member("activityState") { $0.string(activity.activityState) }
            if let start = activity.scheduledStart { members.member("scheduledStart") { $0.string(start) } }
            members.member("contentState") { $0.raw(PhoneJSON.encoded(activity.contentState)) }
            members.member("updateToken") { $0.optionalString(activity.updateToken) }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
