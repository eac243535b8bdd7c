/// The app's `activity.end(_:dismissalPolicy:)`: an optional final content state and when the
/// activity leaves the Lock Screen.
///
/// Document: `{"content-state": {...}, "dismissalPolicy": "default" | "immediate", "dismissal-date": 1700000000}`
/// (a `dismissal-date` means `.after(date)`).
public struct ActivityEndRequest: Decodable, Hashable, Sendable {
    public var hasContentState: Bool
    public var dismissalPolicy: Policy

    public enum Policy: Hashable, Sendable {
        case `default`, immediate
        /// UNIX seconds.
        case after(Double)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case contentState = "content-state"
        case dismissalPolicy
        case dismissalDate = "dismissal-date"
    }

    public init(hasContentState: Bool = false, dismissalPolicy: Policy = .default) {
        self.hasContentState = hasContentState
        self.dismissalPolicy = dismissalPolicy
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "an activity end")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.hasContentState = try container.contains(.contentState) && !container.decodeNil(forKey: .contentState)
        let policy = try container.decodeIfPresent(String.self, forKey: .dismissalPolicy)
        let date = try container.decodeIfPresent(Double.self, forKey: .dismissalDate)
        switch (policy, date) {
        case (nil, nil), ("default", nil): self.dismissalPolicy = .default
        case ("immediate", nil): self.dismissalPolicy = .immediate
        case (nil, let date?), ("after", let date?): self.dismissalPolicy = .after(date)
        default:
            throw DeviceModelError(
                .invalid, field: "dismissalPolicy",
                "dismissalPolicy is \"default\" or \"immediate\", or give dismissal-date (UNIX seconds) alone for .after(date); got \(policy ?? "none") with \(date == nil ? "no" : "a") dismissal-date"
            )
        }
    }
}
