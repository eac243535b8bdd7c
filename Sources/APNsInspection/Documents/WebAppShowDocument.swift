import APNsCore
import APNsDevice

/// `POST …/web-apps/<id>/show`: the service worker calls
/// `registration.showNotification(title, {body, data: {navigate}})`.
public struct WebAppShowDocument: Decodable {
    public var title: String
    public var body: String?
    public var navigate: String?

    public static let example = #"{"title": "…", "body": "…", "navigate": "https://app.example/…"}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case title, body, navigate }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a notification to show")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.title = try container.decode(String.self, forKey: .title)
        guard !self.title.isEmpty else { throw InspectionError(.badDocument, field: "title", "title must not be empty") }
        self.body = try container.decodeIfPresent(String.self, forKey: .body)
        self.navigate = try container.decodeIfPresent(String.self, forKey: .navigate)
    }
}
