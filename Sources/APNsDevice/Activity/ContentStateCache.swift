import APNsCore

/// Content states decoded from one push, by attributes type: a broadcast's payload is the same for
/// every subscribed activity, so it is decoded once per type it meets.
final class ContentStateCache {
    private var decoded: [String: Result<JSONValue, ActivityDecodingError>] = [:]

    func decode(_ typeName: String, _ fields: [ActivityField], _ payload: [UInt8]) -> Result<JSONValue, ActivityDecodingError> {
        if let known = self.decoded[typeName] { return known }
        let result = ActivityDecoder.decode(fields, at: ["aps", "content-state"], in: payload)
        self.decoded[typeName] = result
        return result
    }
}
