/// `{"channel": "<id>"}`: ActivityKit's `PushType.channel(id)`.
struct ChannelPushType: Decodable {
    var channel: String

    private enum CodingKeys: String, CodingKey, CaseIterable { case channel }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "pushType")
        self.channel = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .channel)
    }
}
