/// The body of `POST /api/v1/devices`: `{"topic": "<bundle id>"}`, and optionally the `token`
/// to register (a test's fixed token, or an unregistered one made valid again).
public struct RegistrationDocument: Decodable {
    public var topic: String
    public var token: String?

    public static let example = #"{"topic": "<bundle id>"} and may name a "token""#

    private enum CodingKeys: String, CodingKey, CaseIterable { case topic, token }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a registration")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.topic = try container.decode(String.self, forKey: .topic)
        guard !self.topic.isEmpty, self.topic.utf8.count <= 255 else {
            throw InspectionError(.badDocument, field: "topic", "topic must be a bundle id of 1 to 255 bytes")
        }
        self.token = try container.decodeIfPresent(String.self, forKey: .token)
    }
}
