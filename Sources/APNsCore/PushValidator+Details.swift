/// What a refusal says for the request in hand: its own figures first (the value it sent, its
/// length), then what APNs takes. The reason's explanation stays the general sentence.
extension PushValidator {
    /// A value a request sent, quoted and cut at 40 characters: what a person compares with their code.
    static func sent(_ value: String) -> String {
        let cut = value.count > 40 ? String(value.prefix(40)) + "…" : value
        return "\"\(cut)\""
    }

    static func methodDetail(_ method: String?) -> String {
        "the method was \(method.map(Self.sent) ?? "missing"); APNs takes POST only"
    }

    static func pathDetail(_ path: String?) -> String {
        guard let path else { return "the request had no :path; APNs takes POST /3/device/<device token>" }
        return "the path was \(Self.sent(path)); APNs takes POST /3/device/<device token>"
    }

    static func pushTypeDetail(_ value: String) -> String {
        let names = PushType.all.map(\.rawValue)
        let meant = NearestWord.nearest(value, in: names).map { " (did you mean \($0)?)" } ?? ""
        return "apns-push-type was \(Self.sent(value))\(meant); APNs takes \(names.joined(separator: ", "))"
    }

    static func priorityDetail(_ value: String) -> String {
        "apns-priority was \(Self.sent(value)); APNs takes 10 (now), 5 (when the device's power allows) or 1 (power first)"
    }

    static func expirationDetail(_ value: String) -> String {
        "apns-expiration was \(Self.sent(value)); APNs takes UNIX seconds as digits only, or 0 (deliver now or never)"
    }

    static func topicDetail(_ topic: String) -> String {
        let length = topic.utf8.count
        if length > Self.maximumTopicLength {
            return "apns-topic is \(length) bytes; the longest taken is \(Self.maximumTopicLength)"
        }
        return
            "apns-topic \(Self.sent(topic)) holds a space or a control character; a topic is a bundle id such as com.example.app"
    }

    static let missingTopicDetail =
        "no apns-topic with a provider token (authorization: bearer …): name the app's bundle id, such as com.example.app"

    static func collapseIDDetail(_ collapseID: String) -> String {
        "apns-collapse-id is \(collapseID.utf8.count) bytes; the limit is \(Self.maximumCollapseIDLength)"
    }

    static let emptyPayloadDetail = "the body is empty (0 bytes); send a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}"
}
