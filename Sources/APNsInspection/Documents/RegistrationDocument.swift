import APNsCore

/// The body of `POST /api/v1/devices`: `{"topic": "<bundle id>"}`, and optionally the `token`
/// to register (a test's fixed token, or an unregistered one made valid again).
public struct RegistrationDocument: Decodable {
    public var topic: String
    public var token: String?
    /// The app build's environment: development (a debug build from Xcode) or production
    /// (TestFlight, the App Store, ad hoc); nil for the emulator's `--environment`.
    public var environment: APNsEnvironment?

    public static let example =
        #"{"topic": "<bundle id>"} and may name a "token" and an "environment" ("development" or "production"; serve --environment's when left out)"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case topic, token, environment }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a registration")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.topic = try container.decode(String.self, forKey: .topic)
        guard !self.topic.isEmpty, self.topic.utf8.count <= 255 else {
            throw InspectionError(.badDocument, field: "topic", "topic must be a bundle id of 1 to 255 bytes")
        }
        self.token = try container.decodeIfPresent(String.self, forKey: .token)
        guard let environment = try container.decodeIfPresent(String.self, forKey: .environment) else { return }
        guard let known = APNsEnvironment(rawValue: environment) else {
            throw InspectionError(
                .badDocument, field: "environment",
                "environment must be \"development\" (a debug build) or \"production\" (TestFlight, the App Store), not \"\(environment)\""
            )
        }
        self.environment = known
    }
}
