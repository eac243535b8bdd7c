import APNsCore

/// The `apns-push-type` (and, for a background push, `apns-priority`) `push` sends when `--type`
/// does not say, chosen as a careful provider chooses them. Apple, "Sending notification requests
/// to APNs": the header is required for watchOS 6 and later and recommended everywhere; the topic
/// of a VoIP, complication, File Provider, Live Activity, location, push-to-talk or widgets push
/// carries its type's suffix (``PushLint/topicSuffixes``); a background push (content-available, nothing to show) "must" be priority 5;
/// an alert, a sound or a badge is an alert push.
extension PushCommand {
    static func inferredType(topic: String?, payload: [UInt8]) -> (pushType: String, priority: Int?) {
        if let topic, let type = PushLint.topicSuffixes.first(where: { topic.hasSuffix($0.value) })?.key {
            return (type.rawValue, nil)
        }
        guard let aps = JSONValue.parse(payload)?["aps"] else { return ("alert", nil) }
        if aps["event"] != nil { return ("liveactivity", nil) }
        let shows = aps["alert"] != nil || aps["sound"] != nil || aps["badge"] != nil
        if aps["content-available"]?.isOne == true && !shows { return ("background", 5) }
        return ("alert", nil)
    }
}
