import APNsCore

/// The exam (`serve --provider-exam`): during an ordinary run each provider meets, once each and
/// spread over its first requests, the events the report card needs to see it react to: a 429,
/// a 503, a 410 for a token, a GOAWAY, and (a token-based provider) an expired provider token.
/// Each is journaled as a fault by the rule `exam`.
public enum ProviderExam {
    public enum Event: String, Sendable, CaseIterable {
        case tooManyRequests, serviceUnavailable, unregistered, goAway, expiredProviderToken

        /// The APNs reason it answers with (nil for the GOAWAY).
        public var reason: Reason? {
            switch self {
            case .tooManyRequests: return .tooManyRequests
            case .serviceUnavailable: return .serviceUnavailable
            case .unregistered: return .unregistered
            case .expiredProviderToken: return .expiredProviderToken
            case .goAway: return nil
            }
        }
    }

    /// The event as a fault rule (`exam`) applies it: the refusal, or the GOAWAY (reason
    /// `Shutdown`, as APNs says when it closes a connection), and the mark the journal shows.
    public static func rule(_ event: Event) -> (FaultRule, FaultMark) {
        let action: FaultRule.Action =
            event.reason.map { .respond(reason: $0.wire, status: $0.status, statusByte: nil) } ?? .goAway(reason: "Shutdown")
        return (
            FaultRule(id: "exam", match: FaultRule.Match(), action: action),
            FaultMark(ruleID: "exam", action: "exam: \(event.rawValue)")
        )
    }

    /// Which of a provider's requests (counted from 1) meets which event: every third from the
    /// third on, so that a suite of a dozen pushes meets them all.
    public static func event(forRequest number: Int, kind: ProviderIdentity.Kind) -> Event? {
        guard number >= 3, number % 3 == 0 else { return nil }
        let events = Event.allCases.filter { $0 != .expiredProviderToken || kind == .token }
        let index = number / 3 - 1
        return index < events.count ? events[index] : nil
    }
}
