import APNsCore

/// The body of `POST /api/v1/clock`: `{"advance": "90m"}` (forward by a duration: `ms`, `s`, `m`,
/// `h`, `d`) or `{"set": "<RFC 3339>"}` (to a time not in the clock's past); exactly one.
public struct ClockDocument: Decodable {
    public enum Move: Equatable, Sendable {
        case advance(milliseconds: Int64)
        case set(millis: Int64)
    }

    public var move: Move

    public static let example = #"{"advance": "90m"} or {"set": "2026-12-24T07:00:00Z"}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case advance, set }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a clock move")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let advance = try container.decodeIfPresent(String.self, forKey: .advance)
        let set = try container.decodeIfPresent(String.self, forKey: .set)
        switch (advance, set) {
        case (let text?, nil):
            guard let duration = DurationText.parse(text) else {
                throw InspectionError(
                    .badDocument, field: "advance", "advance must be a duration such as 500ms, 90s, 90m, 2h or 1d")
            }
            self.move = .advance(
                milliseconds: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        case (nil, let text?):
            guard let millis = Timestamp.parse(text) else {
                throw InspectionError(.badDocument, field: "set", "set must be an RFC 3339 time such as 2026-12-24T07:00:00Z")
            }
            self.move = .set(millis: millis)
        default:
            throw InspectionError(.badDocument, field: "body", "give one of advance or set: \(Self.example)")
        }
    }
}
