import APNsCore
import APNsDevice

/// `POST /api/v1/devices/<token>/web-apps`: a web page or Home Screen web app subscribing, as
/// `PushManager.subscribe({userVisibleOnly: true, applicationServerKey})` does.
public struct WebAppDocument: Decodable {
    public var origin: String
    public var kind: WebApp.Kind
    public var permission: WebApp.Permission
    /// base64url, as the page passes it.
    public var applicationServerKey: String

    public static let example =
        #"{"origin": "https://app.example", "kind": "homeScreen" | "safari", "permission": "granted", "applicationServerKey": "<base64url P-256 public key>"}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case origin, kind, permission, applicationServerKey }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a web app")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch WebApp.origin(try container.decode(String.self, forKey: .origin)) {
        case .success(let origin): self.origin = origin
        case .failure(let error): throw error
        }
        let kind = try container.decodeIfPresent(String.self, forKey: .kind) ?? "homeScreen"
        guard let known = WebApp.Kind(rawValue: kind) else {
            throw InspectionError(.badDocument, field: "kind", "kind is homeScreen or safari")
        }
        self.kind = known
        let permission = try container.decodeIfPresent(String.self, forKey: .permission) ?? "granted"
        guard let allowed = WebApp.Permission(rawValue: permission) else {
            throw InspectionError(.badDocument, field: "permission", "permission is granted, denied or default")
        }
        self.permission = allowed
        self.applicationServerKey = try container.decode(String.self, forKey: .applicationServerKey)
    }
}
