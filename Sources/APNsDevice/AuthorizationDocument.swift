import Foundation

/// `{"status": "authorized", "alert": true, "sound": false, "badge": true, "timeSensitive": true,
/// "criticalAlert": false, "scheduledDelivery": false, "directMessages": true}`: what the user allows. A status other than
/// `authorized`, `provisional` or `ephemeral` allows nothing, whatever the flags say.
struct AuthorizationDocument: Decodable {
    let authorization: Authorization

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case status, alert, sound, badge, timeSensitive, criticalAlert, scheduledDelivery, directMessages
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "authorization")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .status)
        guard let status = Authorization.Status(rawValue: name) else {
            throw DeviceModelError(
                .invalid, field: "authorization.status",
                "authorization.status \(name) is not one of notDetermined, denied, authorized, provisional, ephemeral")
        }
        guard [.authorized, .provisional, .ephemeral].contains(status) else {
            self.authorization = Authorization(status: status)
            return
        }
        self.authorization = Authorization(
            status: status,
            alert: try container.decodeIfPresent(Bool.self, forKey: .alert) ?? false,
            sound: try container.decodeIfPresent(Bool.self, forKey: .sound) ?? false,
            badge: try container.decodeIfPresent(Bool.self, forKey: .badge) ?? false,
            timeSensitive: try container.decodeIfPresent(Bool.self, forKey: .timeSensitive) ?? true,
            criticalAlert: try container.decodeIfPresent(Bool.self, forKey: .criticalAlert) ?? false,
            scheduledDelivery: try container.decodeIfPresent(Bool.self, forKey: .scheduledDelivery) ?? false,
            directMessages: try container.decodeIfPresent(Bool.self, forKey: .directMessages) ?? true
        )
    }
}
