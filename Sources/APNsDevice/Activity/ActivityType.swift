import APNsCore

/// An `ActivityAttributes` type an app declares: the fields of its static attributes and of its
/// `ContentState`. Its name is what `attributes-type` says in a push-to-start payload.
///
/// Document: `{"attributes": {"orderNumber": "int"}, "contentState": {"eta": "date", "driver": "string?"}}`.
public struct ActivityType: Codable, Hashable, Sendable {
    public var attributes: [ActivityField]
    public var contentState: [ActivityField]

    public init(attributes: [ActivityField], contentState: [ActivityField]) {
        self.attributes = attributes
        self.contentState = contentState
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case attributes, contentState }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "an activity type")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.attributes = try container.decodeIfPresent(ActivityFields.self, forKey: .attributes)?.fields ?? []
        self.contentState = try container.decodeIfPresent(ActivityFields.self, forKey: .contentState)?.fields ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ActivityFields(self.attributes), forKey: .attributes)
        try container.encode(ActivityFields(self.contentState), forKey: .contentState)
    }

    /// The longest type name an app may declare (Swift puts no limit; a push's payload does).
    public static let longestName = 256
}
