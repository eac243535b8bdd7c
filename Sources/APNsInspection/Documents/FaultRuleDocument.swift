import APNsCore

/// The body of `POST /api/v1/faults`:
/// `{"match": {...}, "action": {"type": ..., ...} | "reset", "times": N, "probability": p}`.
public struct FaultRuleDocument: Decodable, Sendable {
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
        guard container.contains(.action), try !container.decodeNil(forKey: .action) else {
            throw FaultActionDocument.notAnAction
        }
        self.action = try container.decode(FaultActionDocument.self, forKey: .action).action
        if container.contains(.times), try !container.decodeNil(forKey: .times) {
            guard let times = try? container.decode(Int.self, forKey: .times), times >= 1 else {
                throw Self.bad("times must be a whole number of at least 1")
            }
            self.times = times
        }
        if container.contains(.probability), try !container.decodeNil(forKey: .probability) {
            guard let probability = try? container.decode(Double.self, forKey: .probability), probability > 0, probability <= 1
            else {
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
            if reason != nil && statusByte == nil { return "with only a reason is for http2 and webpush" }
            return "with only a statusByte is for binary"
        case .delay: return "is for http2 and webpush"
        case .goAway: return "is for http2"
        case .reset: return "is for every interface"
        }
    }
}
