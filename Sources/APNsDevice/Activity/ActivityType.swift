import APNsCore

/// An `ActivityAttributes` type an app declares: the fields of its static attributes and of its
/// `ContentState`. Its name is what `attributes-type` says in a push-to-start payload.
///
/// Document: `{"attributes": {"orderNumber": "int"}, "contentState": {"eta": "date", "driver": "string?"},
/// "supplementalActivityFamilies": ["small"]}` (the last, WidgetKit's modifier of that name, iOS 18:
/// the sizes the activity's configuration supports beyond the iPhone's `medium`).
public struct ActivityType: Codable, Hashable, Sendable {
    public var attributes: [ActivityField]
    public var contentState: [ActivityField]
    public var supplementalActivityFamilies: [ActivityFamily]

    public init(attributes: [ActivityField], contentState: [ActivityField], supplementalActivityFamilies: [ActivityFamily] = []) {
        self.attributes = attributes
        self.contentState = contentState
        self.supplementalActivityFamilies = supplementalActivityFamilies
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case attributes, contentState, supplementalActivityFamilies }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "an activity type")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.attributes = try container.decodeIfPresent(ActivityFields.self, forKey: .attributes)?.fields ?? []
        self.contentState = try container.decodeIfPresent(ActivityFields.self, forKey: .contentState)?.fields ?? []
        let families = try container.decodeIfPresent([String].self, forKey: .supplementalActivityFamilies) ?? []
        self.supplementalActivityFamilies = try families.map { name in
            guard let family = ActivityFamily(rawValue: name), family != .compact else {
                throw DeviceModelError(
                    .invalid, field: "supplementalActivityFamilies",
                    "supplementalActivityFamilies takes WidgetKit's ActivityFamily names, small and medium, not \(name)")
            }
            return family
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ActivityFields(self.attributes), forKey: .attributes)
        try container.encode(ActivityFields(self.contentState), forKey: .contentState)
        if !self.supplementalActivityFamilies.isEmpty {
            try container.encode(self.supplementalActivityFamilies, forKey: .supplementalActivityFamilies)
        }
    }

    /// The longest type name an app may declare (Swift puts no limit; a push's payload does).
    public static let longestName = 256
}
