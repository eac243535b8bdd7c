import APNsCore

/// The body of `POST /api/v1/faults`:
/// `{"match": {...}, "action": {"type": ..., ...} | "reset", "times": N, "probability": p}`.
public struct FaultRuleDocument: Decodable {
    public var match = FaultRule.Match()
    public var action: FaultRule.Action
    public var times: Int?
    public var probability = 1.0

    public static let example = #"{"match": {...}, "action": {"type": ...}}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case match, action, times, probability }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a fault rule")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let match = try container.decodeIfPresent(FaultMatchDocument.self, forKey: .match) { self.match = match.match }
        guard container.contains(.action), try !container.decodeNil(forKey: .action) else { throw FaultActionDocument.notAnAction }
        self.action = try container.decode(FaultActionDocument.self, forKey: .action).action
        if container.contains(.times), try !container.decodeNil(forKey: .times) {
            guard let times = try? container.decode(Int.self, forKey: .times), times >= 1 else {
                throw Self.bad("times must be a whole number of at least 1")
            }
            self.times = times
        }
        if container.contains(.probability), try !container.decodeNil(forKey: .probability) {
            guard let probability = try? container.decode(Double.self, forKey: .probability), probability > 0, probability <= 1 else {
                throw Self.bad("probability must be a number above 0 and at most 1")
            }
            self.probability = probability
        }
        if let interface = self.match.interface, !self.action.applies(to: interface) {
            throw Self.bad("a \(self.action.name) action \(Self.interfaces(of: self.action)); it never applies to \(interface)")
        }
    }

    static func bad(_ message: String) -> InspectionError { InspectionError(.badDocument, field: "fault", message) }

    private static func interfaces(of action: FaultRule.Action) -> String {
        switch action {
        case .respond(let reason, _, let statusByte):
            if reason != nil && statusByte == nil { return "with only a reason is for http2" }
            return "with only a statusByte is for binary"
        case .delay, .goAway: return "is for http2"
        case .reset: return "is for both"
        }
    }
}

/// A fault rule's `match`: which requests it is for.
public struct FaultMatchDocument: Decodable {
    public var match: FaultRule.Match

    private enum CodingKeys: String, CodingKey, CaseIterable { case token, topic, pushType, interface, channelId }

    public init(from decoder: any Decoder) throws {
        guard (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil else { throw FaultRuleDocument.bad("match must be an object") }
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
            guard let parsed = Interface(rawValue: name), parsed != .local else { throw FaultRuleDocument.bad("match.interface must be http2, binary or broadcast") }
            interface = parsed
        }
        // A rule that could never match is refused rather than left to wait forever.
        let token = try text(.token)
        if let token, DeviceToken(hex: token) == nil {
            throw FaultRuleDocument.bad("match.token must be a device token: even-length hex of 32 to 100 bytes, not \(token.prefix(80))")
        }
        let pushType = try text(.pushType)
        if let pushType {
            guard PushType(rawValue: pushType) != nil else {
                throw FaultRuleDocument.bad("match.pushType \(pushType) is not a push type APNs knows (\(PushType.all.map(\.rawValue).joined(separator: ", ")))")
            }
            if interface == .binary { throw FaultRuleDocument.bad("match.pushType never matches on binary: the binary interface has no push type") }
        }
        let channelID = try text(.channelId)
        if channelID != nil, let interface, interface != .broadcast {
            throw FaultRuleDocument.bad("match.channelId only matches channel and broadcast requests (interface broadcast), never \(interface)")
        }
        self.match = FaultRule.Match(token: token, topic: try text(.topic), pushType: pushType, interface: interface, channelID: channelID)
    }
}
