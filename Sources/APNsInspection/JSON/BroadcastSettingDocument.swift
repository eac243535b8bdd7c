import APNsCore
import APNsDevice

/// The body of `PUT /api/v1/apps/<bundleId>/broadcast`: `{"enabled": true|false}`.
public struct BroadcastSettingDocument: Decodable, Sendable {
    public var enabled: Bool

    public static let example = #"{"enabled": false}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case enabled }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a broadcast setting")
        self.enabled = try decoder.container(keyedBy: CodingKeys.self).decode(Bool.self, forKey: .enabled)
    }
}
