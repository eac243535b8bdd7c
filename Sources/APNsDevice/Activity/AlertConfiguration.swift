/// `{"title", "body", "sound"}`: ActivityKit's `AlertConfiguration`.
struct AlertConfiguration: Decodable {
    var alert: ActivityAlert

    private enum CodingKeys: String, CodingKey, CaseIterable { case title, body, sound }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "alertConfiguration")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.alert = ActivityAlert(
            title: try container.decodeIfPresent(String.self, forKey: .title),
            body: try container.decodeIfPresent(String.self, forKey: .body),
            sound: try container.decodeIfPresent(String.self, forKey: .sound))
    }
}
