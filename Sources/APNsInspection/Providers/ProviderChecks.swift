import APNsCore

/// The report card's checks, each a pure function of a provider's history (``ProviderHistory``)
/// with its source. Sources: Apple, "Establishing a token-based connection to APNs" (refresh a
/// provider token no more than once every 20 minutes and no less than once every 60:
/// TooManyProviderTokenUpdates, ExpiredProviderToken) and "Sending notification requests to APNs"
/// ("keep your connections with APNs open across multiple notifications; don't repeatedly open
/// and close connections. APNs treats rapid connection and disconnection as a denial-of-service
/// attack").
public enum ProviderChecks {
    /// Every check, in the report's order.
    static let judges: [@Sendable (ProviderHistory) -> ProviderCheck] = [
        tokenReuse, connectionReuse, unregisteredRespected, futileRetries, backoff, goAwayRecovery, pushTypeAndPriority,
        expiration, environment,
    ]

    /// Every check's id, in the report's order (what `apns-emulator report --fail-on` takes).
    public static let ids = judges.map { $0(ProviderHistory(identity: .anonymous(peer: ""))).id }

    static let tokenSource =
        "Apple, \"Establishing a token-based connection to APNs\": refresh the token no more than once every 20 minutes and no less than once every 60 (TooManyProviderTokenUpdates, ExpiredProviderToken)"
    static let connectionSource =
        "Apple, \"Sending notification requests to APNs\": keep connections open across multiple notifications; APNs treats rapid connection and disconnection as a denial-of-service attack"

    /// A provider signs its requests with one token for 20 to 60 minutes.
    static func tokenReuse(_ history: ProviderHistory) -> ProviderCheck {
        let id = "token-reuse"
        guard history.identity.kind == .token else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "the provider does not sign its requests with provider tokens",
                source: Self.tokenSource)
        }
        let tokens = history.tokens.sorted { $0.value.firstSeen < $1.value.firstSeen }
        guard history.requests >= 2 else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "fewer than two requests: no token could be reused", source: Self.tokenSource)
        }
        // A new token after the one before was answered ExpiredProviderToken is what APNs asks for.
        let expired = Set(history.recent.filter { $0.reason == Reason.expiredProviderToken.wire }.map(\.tokenHash))
        let gaps = zip(tokens, tokens.dropFirst()).map { ($1.value.firstSeen - $0.value.firstSeen, $1.value, $0.key.hashValue) }
        let early = gaps.filter { $0.0 < 20 * 60_000 && !expired.contains($0.2) }
        let stale = tokens.map(\.value).filter { token in token.issuedAt.map { token.lastSeen - $0 * 1000 > 60 * 60_000 } ?? false
        }
        let kept = Self.keptAfterExpiry(history)
        var summary = "\(tokens.count) provider token\(tokens.count == 1 ? "" : "s") over \(history.requests) requests"
        if let shortest = gaps.map(\.0).min() { summary += "; the shortest time before a new one: \(Self.duration(shortest))" }
        if !early.isEmpty { summary += "; \(early.count) made sooner than 20 minutes after the one before" }
        if !stale.isEmpty { summary += "; \(stale.count) used more than 60 minutes after its iat" }
        if !kept.isEmpty {
            summary += "; sent \(kept.count) more request(s) with a token after it was answered ExpiredProviderToken"
        }
        let failed = !early.isEmpty || !stale.isEmpty || !kept.isEmpty
        let evidence = early.compactMap(\.1.firstApnsID) + stale.compactMap(\.firstApnsID) + kept
        return ProviderCheck(
            id: id, verdict: failed ? .fail : .pass, summary: summary, apnsIDs: evidence,
            figures: [("tokens", Double(tokens.count)), ("shortestRefreshSeconds", Double(gaps.map(\.0).min() ?? 0) / 1000)],
            source: Self.tokenSource)
    }

    /// Requests sent, after a 403 ExpiredProviderToken, with the token it refused.
    static func keptAfterExpiry(_ history: ProviderHistory) -> [String] {
        var expired: [Int: Int64] = [:]
        var kept: [String] = []
        for record in history.recent where record.tokenHash != 0 {
            if let at = expired[record.tokenHash], record.at > at { kept.append(record.apnsID ?? "-") }
            if record.reason == Reason.expiredProviderToken.wire, expired[record.tokenHash] == nil {
                expired[record.tokenHash] = record.at
            }
        }
        return kept
    }

    /// A provider keeps its connections open across many requests.
    static func connectionReuse(_ history: ProviderHistory) -> ProviderCheck {
        let id = "connection-reuse"
        guard history.requests >= 5 else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "fewer than five requests: too few to judge how connections are reused",
                source: Self.connectionSource)
        }
        let used = history.connections.values.filter { $0.requests > 0 }
        let single = used.filter { $0.requests == 1 }
        let opened = used.map(\.openedAt).sorted()
        var peak = 0
        var start = 0
        for (index, at) in opened.enumerated() {
            while at - opened[start] >= 60_000 { start += 1 }
            peak = max(peak, index - start + 1)
        }
        let mean = Double(history.requests) / Double(max(1, used.count))
        let failed = (used.count >= 3 && mean < 2) || peak > 10
        let summary =
            "\(history.requests) requests over \(used.count) connection\(used.count == 1 ? "" : "s") (\(Self.decimal(mean)) per connection); at most \(peak) opened in one minute; \(single.count) carried a single request"
        let evidence = single.sorted { $0.openedAt < $1.openedAt }.compactMap(\.firstApnsID)
        return ProviderCheck(
            id: id, verdict: failed ? .fail : .pass, summary: summary, apnsIDs: failed ? evidence : [],
            figures: [
                ("connections", Double(used.count)), ("requestsPerConnection", mean), ("peakOpenedPerMinute", Double(peak)),
            ],
            source: Self.connectionSource)
    }

    /// `1.5`, `12`: a figure for a sentence.
    static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
    }

    /// `850 ms`, `12 s`, `25 min`.
    static func duration(_ millis: Int64) -> String {
        if millis < 1000 { return "\(millis) ms" }
        if millis < 120_000 { return "\(millis / 1000) s" }
        return "\(millis / 60_000) min"
    }
}
