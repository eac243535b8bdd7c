/// The body of `POST /api/v1/reset`, which may be empty: `{"devices": true}` forgets tokens too.
struct ResetBody: Decodable {
    var devices = false

    static let example = #"{"devices": true} or nothing"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case devices }

    init() {}

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a reset")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.devices = try container.decodeIfPresent(Bool.self, forKey: .devices) ?? false
    }

    /// Decodes `body`; an empty body is a reset without `devices`.
    static func decode(_ body: [UInt8]) throws(ServerError) -> ResetBody {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return ResetBody() }
        return try AdminBody.decode(ResetBody.self, from: body, example: Self.example)
    }
}
