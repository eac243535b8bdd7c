/// The body of `POST /api/v1/reset`, which may be empty: `{"devices": true}` forgets tokens too.
public struct ResetDocument: Decodable {
    public var devices = false

    public static let example = #"{"devices": true} or nothing"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case devices }

    public init() {}

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a reset")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.devices = try container.decodeIfPresent(Bool.self, forKey: .devices) ?? false
    }

    /// Decodes `body`; an empty body is a reset without `devices`.
    public static func decode(_ body: [UInt8]) throws(InspectionError) -> ResetDocument {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return ResetDocument() }
        return try RequestDocument.decode(ResetDocument.self, from: body, example: Self.example)
    }
}
