import APNsCore

/// A fault rule's `match`: which requests it is for.
public struct FaultMatchDocument: Decodable {
    public var match: FaultRule.Match

    private enum CodingKeys: String, CodingKey, CaseIterable { case token, topic, pushType, interface, channelId }

    public init(from decoder: any Decoder) throws {
        guard (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil else {
            throw FaultRuleDocument.bad("match must be an object")
        }
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "match")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String? {
            guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
            guard let value = try? container.decode(String.self, forKey: key), !value.isEmpty else {
                throw FaultRuleDocument.bad("match.\(key.stringValue) must be a string")
            }
            return value
        }
        var interface: Interface?
        if let name = try text(.interface) {
            // Local notifications come from the phone, not a provider: no rule reaches them.
            guard let parsed = Interface(rawValue: name), parsed != .local else {
                throw FaultRuleDocument.bad("match.interface must be http2, binary, broadcast or webpush")
            }
            interface = parsed
        }
        // A rule that could never match is refused rather than left to wait forever.
        let token = try text(.token)
        if let token, DeviceToken(hex: token) == nil {
            throw FaultRuleDocument.bad(
                "match.token must be a device token: even-length hex of 32 to 100 bytes, not \(token.prefix(80))")
        }
        let pushType = try text(.pushType)
        if let pushType {
            guard PushType(rawValue: pushType) != nil else {
                throw FaultRuleDocument.bad(
                    "match.pushType \(pushType) is not a push type APNs knows (\(PushType.all.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            if interface == .binary {
                throw FaultRuleDocument.bad("match.pushType never matches on binary: the binary interface has no push type")
            }
        }
        let channelID = try text(.channelId)
        if channelID != nil, let interface, interface != .broadcast {
            throw FaultRuleDocument.bad(
                "match.channelId only matches channel and broadcast requests (interface broadcast), never \(interface)")
        }
        self.match = FaultRule.Match(
            token: token, topic: try text(.topic), pushType: pushType, interface: interface, channelID: channelID)
    }
}
