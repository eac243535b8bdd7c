import APNsCore
import APNsDevice

/// `PUT …/web-apps/<id>/permission`: the user changes the origin's notification permission.
public struct WebAppPermissionDocument: Decodable {
    public var permission: WebApp.Permission

    public static let example = #"{"permission": "granted" | "denied" | "default"}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case permission }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a permission change")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let permission = WebApp.Permission(rawValue: try container.decode(String.self, forKey: .permission)) else {
            throw InspectionError(.badDocument, field: "permission", "permission is granted, denied or default")
        }
        self.permission = permission
    }
}
