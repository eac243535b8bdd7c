/// `NSSupportsLiveActivitiesFrequentUpdates` in the app's Info.plist, and the user's switch for
/// it in Settings (on unless turned off).
public struct FrequentUpdates: Codable, Hashable, Sendable {
    public var declared: Bool
    public var enabled: Bool

    public init(declared: Bool = false, enabled: Bool = true) {
        self.declared = declared
        self.enabled = enabled
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case declared, enabled }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "frequentUpdates")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.declared = try container.decodeIfPresent(Bool.self, forKey: .declared) ?? false
        self.enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
    }
}
