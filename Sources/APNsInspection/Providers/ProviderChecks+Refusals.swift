import APNsCore

/// The checks of how a provider reacts to refusals. Source: Apple, "Handling notification
/// responses from APNs" (410: the token is no longer active, stop sending to it; 400 BadDeviceToken;
/// 400, 403, 404, 405 and 413 are errors in the request, which sending it again cannot mend; 429:
/// too many requests to the same device token; 500 and 503: retry later).
extension ProviderChecks {
    static let refusalSource =
        "Apple, \"Handling notification responses from APNs\": stop sending to a token answered 410 Unregistered or 400 BadDeviceToken; 400, 403, 404, 405 and 413 will not succeed when sent again; after 429, 500 or 503, wait before retrying"

    /// Nothing sent to a token after it answered 410 or BadDeviceToken (unless, for a real 410,
    /// the device registered it again: then a later push succeeds and is no fault).
    static func unregisteredRespected(_ history: ProviderHistory) -> ProviderCheck {
        let id = "unregistered-respected"
        var dead: [Substring: (at: Int64, exam: Bool)] = [:]
        var ignored: [ProviderRequestRecord] = []
        for record in history.recent {
            if let death = dead[record.token], record.at >= death.at {
                if death.exam || Self.isDead(record) { ignored.append(record) }
            }
            if Self.isDead(record), dead[record.token] == nil { dead[record.token] = (record.at, record.exam == .unregistered) }
        }
        guard !dead.isEmpty else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "no token was answered 410 Unregistered or 400 BadDeviceToken",
                source: Self.refusalSource)
        }
        let tokens = Set(ignored.map(\.token)).count
        let summary =
            "\(dead.count) token\(dead.count == 1 ? "" : "s") answered 410 or BadDeviceToken; "
            + (ignored.isEmpty
                ? "nothing was sent to them after"
                : "\(ignored.count) request\(ignored.count == 1 ? " was" : "s were") sent to \(tokens) of them after")
        return ProviderCheck(
            id: id, verdict: ignored.isEmpty ? .pass : .fail, summary: summary, apnsIDs: ignored.compactMap(\.apnsID),
            figures: [("deadTokens", Double(dead.count)), ("sentAfter", Double(ignored.count))], source: Self.refusalSource)
    }

    static func isDead(_ record: ProviderRequestRecord) -> Bool {
        record.status == Reason.unregistered.status || record.reason == Reason.badDeviceToken.wire
    }

    /// A refusal that cannot succeed is not sent again unchanged.
    static func futileRetries(_ history: ProviderHistory) -> ProviderCheck {
        let id = "futile-retries"
        var futile: Set<Int> = []
        var refusals = 0
        var retried: [ProviderRequestRecord] = []
        for record in history.recent {
            if futile.contains(record.fingerprint) { retried.append(record) }
            if Self.cannotSucceed(record) {
                refusals += 1
                futile.insert(record.fingerprint)
            }
        }
        guard refusals > 0 else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "no request was refused in a way that sending it again cannot mend",
                source: Self.refusalSource)
        }
        let summary =
            "\(refusals) refusal\(refusals == 1 ? "" : "s") that cannot succeed when sent again (400, 403, 404, 405, 413); "
            + (retried.isEmpty ? "none was sent again" : "\(retried.count) sent again unchanged")
        return ProviderCheck(
            id: id, verdict: retried.isEmpty ? .pass : .fail, summary: summary, apnsIDs: retried.compactMap(\.apnsID),
            figures: [("futileRefusals", Double(refusals)), ("resent", Double(retried.count))], source: Self.refusalSource)
    }

    /// 400s (but BadDeviceToken, judged by `unregistered-respected`), 403s (but an expired
    /// provider token, which a new token mends), 404, 405 and 413.
    static func cannotSucceed(_ record: ProviderRequestRecord) -> Bool {
        switch record.status {
        case 400: return record.reason != Reason.badDeviceToken.wire
        case 403: return record.reason != Reason.expiredProviderToken.wire
        case 404, 405, 413: return true
        default: return false
        }
    }

    /// After 429, 500 or 503 the same request waits at least a second before it is sent again.
    static func backoff(_ history: ProviderHistory) -> ProviderCheck {
        let id = "backoff"
        var waiting: [Int: ProviderRequestRecord] = [:]
        var calls = 0
        var intervals: [(millis: Int64, record: ProviderRequestRecord)] = []
        for record in history.recent {
            if let refused = waiting.removeValue(forKey: record.fingerprint) {
                intervals.append((record.at - refused.at, record))
            }
            if [429, 500, 503].contains(record.status) {
                calls += 1
                waiting[record.fingerprint] = record
            }
        }
        guard calls > 0 else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "no 429, 500 or 503 answer called for backing off", source: Self.refusalSource
            )
        }
        let hasty = intervals.filter { $0.millis < 1000 }
        let seen = intervals.map { Self.duration($0.millis) }.prefix(10).joined(separator: ", ")
        let summary =
            "\(calls) answer\(calls == 1 ? "" : "s") called for backing off; "
            + (intervals.isEmpty
                ? "none was retried"
                : "retried after \(seen)\(hasty.isEmpty ? "" : "; \(hasty.count) sooner than 1 s")")
        return ProviderCheck(
            id: id, verdict: hasty.isEmpty ? .pass : .fail, summary: summary, apnsIDs: hasty.compactMap(\.record.apnsID),
            figures: [("calls", Double(calls)), ("retries", Double(intervals.count)), ("hasty", Double(hasty.count))],
            source: Self.refusalSource)
    }

    static let environmentSource =
        "Apple, \"Handling notification responses from APNs\": 400 BadDeviceToken, \"verify that the request contains a valid token and that the token matches the environment\"; \"Sending notification requests to APNs\": the development server api.sandbox.push.apple.com, the production server api.push.apple.com"

    /// Every token sent to the endpoint of its app's build: none refused BadDeviceToken for
    /// belonging to the other environment (a debug build's token at production, or the reverse).
    static func environment(_ history: ProviderHistory) -> ProviderCheck {
        let id = "environment"
        guard history.requests > 0 else {
            return ProviderCheck(id: id, verdict: .notSeen, summary: "no request", source: Self.environmentSource)
        }
        let wrong = history.recent.filter(\.otherEnvironment)
        let tokens = Set(wrong.map(\.token)).count
        let summary =
            wrong.isEmpty
            ? "\(history.requests) request\(history.requests == 1 ? "" : "s"): none sent a token to the other environment's endpoint"
            : "\(wrong.count) request\(wrong.count == 1 ? "" : "s") sent \(tokens) token\(tokens == 1 ? "" : "s") to the endpoint of the other environment (a debug build's token to production, or a TestFlight or App Store build's to the sandbox): 400 BadDeviceToken; point the provider's environment setting at the build's"
        return ProviderCheck(
            id: id, verdict: wrong.isEmpty ? .pass : .fail, summary: summary, apnsIDs: wrong.compactMap(\.apnsID),
            figures: [("otherEnvironment", Double(wrong.count)), ("tokens", Double(tokens))], source: Self.environmentSource)
    }
}
