import APNsCore

/// `GET /api/v1/tokens/<token>`: what the Push Notifications Console's token validation says of
/// a token (Apple, "Diagnosing issues with the Push Notifications Console"), with the emulator's
/// own detail: whether it is known, the environment of the build that registered it and the
/// endpoint that takes it, its device and app, and whether it is still registered.
public enum TokenCheckJSON {
    /// `record`: what the store holds of the token (nil: never registered here); `queued`: how
    /// many notifications wait for it; `openPolicy`: whether a push to a token the emulator did
    /// not issue is taken (`--tokens open`).
    public static func write(token: DeviceToken, record: TokenRecord?, queued: Int, openPolicy: Bool) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("token") { $0.string(token.hex) }
            members.member("known") { $0.raw(record == nil ? "false" : "true") }
            members.member("environment") { $0.optionalString(record?.environment.rawValue) }
            members.member("endpoint") { $0.optionalString(record?.environment.providerHost) }
            members.member("topic") { $0.optionalString(record.flatMap { $0.topic.isEmpty ? nil : $0.topic }) }
            members.member("deviceId") { $0.optionalString(record?.deviceID) }
            members.member("registered") { $0.raw(record != nil && record?.unregisteredAt == nil ? "true" : "false") }
            members.member("registeredAt") { $0.optionalTime(record.flatMap { $0.registeredAt > 0 ? $0.registeredAt : nil }) }
            members.member("unregisteredAt") { $0.optionalTime(record?.unregisteredAt) }
            members.member("queued") { $0.number(queued) }
            members.member("verdict") {
                $0.string(Self.verdict(token: token, record: record, queued: queued, openPolicy: openPolicy))
            }
        }
        return writer.bytes
    }

    /// The answer in a sentence, as a developer wants it before reading code.
    static func verdict(token: DeviceToken, record: TokenRecord?, queued: Int, openPolicy: Bool) -> String {
        guard let record else {
            let waiting = queued > 0 ? " (\(queued) notification\(queued == 1 ? "" : "s") wait for it)" : ""
            return openPolicy
                ? "not a token this emulator issued\(waiting): --tokens open takes pushes to it at either endpoint; APNs would answer 400 BadDeviceToken"
                : "not a token this emulator issued: a push to it is refused 400 BadDeviceToken (--tokens registered)"
        }
        let environment = record.environment
        let app = record.topic.isEmpty ? "" : " for \(record.topic)"
        let device = record.deviceID.map { " on device \($0)" } ?? ""
        if let at = record.unregisteredAt {
            return
                "unregistered since \(Timestamp.rfc3339(millis: at)): the app was removed\(device); a push is refused 410 Unregistered"
        }
        return
            "registered by \(environment.buildName)\(app)\(device): push it to \(environment.endpointName) (\(environment.providerHost)); at the other endpoint it is 400 BadDeviceToken"
    }
}
