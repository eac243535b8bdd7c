import APNsCore

/// The checks of what a provider sends. Sources: RFC 9113, section 6.8 (after GOAWAY, streams
/// above its last stream id were not processed and may be sent again on a new connection; those
/// at or below it were); Apple, "Sending notification requests to APNs" (`apns-push-type` is
/// required for watchOS 6 and later and recommended everywhere; background notifications must
/// use priority 5, 10 is an error for them; `apns-expiration` is a UNIX time in seconds, 0 to
/// deliver now or never).
extension ProviderChecks {
    static let goAwaySource =
        "RFC 9113, section 6.8: after GOAWAY, requests above its last stream id were not processed and may be sent again on a new connection; those at or below it were processed"
    static let headerSource =
        "Apple, \"Sending notification requests to APNs\": apns-push-type is required for watchOS 6 and later and recommended on every platform; background pushes use apns-priority 5 (10 is an error for them); apns-expiration is a UNIX time in seconds (0: now or never)"

    /// After a GOAWAY nothing is lost (each request it left unprocessed is sent again on another
    /// connection) and nothing is sent twice (no request it processed while in flight is).
    static func goAwayRecovery(_ history: ProviderHistory) -> ProviderCheck {
        let id = "goaway-recovery"
        let away = history.connections.values.compactMap { connection in connection.goAway.map { (connection.id, $0) } }
        guard !away.isEmpty else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "the emulator sent no GOAWAY to this provider", source: Self.goAwaySource)
        }
        var lost: [ProviderRequestRecord] = []
        var twice: [ProviderRequestRecord] = []
        var unprocessed = 0
        for (connection, goAway) in away {
            // What other connections sent from the GOAWAY on, and what of it within 30 s.
            var resent: Set<Int> = []
            var resentSoon: Set<Int> = []
            for record in history.recent where record.connection != connection && record.at >= goAway.at {
                resent.insert(record.fingerprint)
                if record.at - goAway.at < 30_000 { resentSoon.insert(record.fingerprint) }
            }
            for record in history.recent where record.connection == connection {
                if record.stream > goAway.lastStream {
                    // Above the last stream id: not processed, whenever the clock read it (the
                    // request that met the GOAWAY may be recorded a millisecond before it).
                    unprocessed += 1
                    if !resent.contains(record.fingerprint) { lost.append(record) }
                } else if record.status != 0, record.at >= goAway.at, resentSoon.contains(record.fingerprint) {
                    twice.append(record)
                }
            }
        }
        let summary =
            "\(away.count) GOAWAY\(away.count == 1 ? "" : "s") left \(unprocessed) request\(unprocessed == 1 ? "" : "s") unprocessed; "
            + "\(lost.count) of them never sent again (lost); \(twice.count) processed one\(twice.count == 1 ? "" : "s") sent again (twice)"
        return ProviderCheck(
            id: id, verdict: lost.isEmpty && twice.isEmpty ? .pass : .fail, summary: summary,
            apnsIDs: (lost + twice).compactMap(\.apnsID),
            figures: [("goAways", Double(away.count)), ("lost", Double(lost.count)), ("twice", Double(twice.count))],
            source: Self.goAwaySource)
    }

    /// An `apns-expiration` (seconds) already past, by more than a minute, when it arrived at `at`
    /// (real time, ms); 0 means now or never and is never past.
    static func isPast(expiration seconds: Int64, at: Int64) -> Bool {
        seconds != 0 && seconds * 1000 < at - 60_000
    }

    /// An `apns-expiration` more than a year ahead of `at`: milliseconds sent for seconds.
    static func isFarAhead(expiration seconds: Int64, at: Int64) -> Bool {
        seconds > (at + 366 * 86_400_000) / 1000
    }

    /// Every request names its push type; background pushes go at priority 5. Reads the
    /// requests kept (near a refusal or a GOAWAY) and those counted (``ProviderTally``).
    static func pushTypeAndPriority(_ history: ProviderHistory) -> ProviderCheck {
        let id = "push-type-and-priority"
        let sent = history.recent.filter { $0.status != 0 }
        let tally = history.tally
        let count = sent.count + tally.requests
        guard count > 0 else {
            return ProviderCheck(id: id, verdict: .notSeen, summary: "no request was processed", source: Self.headerSource)
        }
        let untyped = sent.filter { $0.pushType == nil }
        let background = sent.filter { $0.warnings.contains("background-priority") || $0.reason == Reason.badPriority.wire }
        let invalid = sent.filter { $0.reason == Reason.invalidPushType.wire }
        let (untypedCount, backgroundCount) = (untyped.count + tally.untyped, background.count + tally.backgroundAt10)
        let summary =
            "\(count) request\(count == 1 ? "" : "s"): \(untypedCount) without apns-push-type, "
            + "\(backgroundCount) background at priority 10 or a bad priority, \(invalid.count) with an invalid push type"
        let bad = (untyped + background + invalid).compactMap(\.apnsID) + tally.untypedIDs + tally.backgroundIDs
        return ProviderCheck(
            id: id, verdict: untypedCount + backgroundCount + invalid.count == 0 ? .pass : .fail, summary: summary, apnsIDs: bad,
            figures: [("untyped", Double(untypedCount)), ("backgroundAt10", Double(backgroundCount))], source: Self.headerSource)
    }

    /// `apns-expiration` is a time to come, in seconds: not one already past (other than 0),
    /// nor one so far off that it must be milliseconds.
    static func expiration(_ history: ProviderHistory) -> ProviderCheck {
        let id = "expiration"
        let dated = history.recent.compactMap { record in record.expiration.flatMap { Int64($0) }.map { (record, $0) } }
        let tally = history.tally
        let count = dated.count + tally.dated
        guard count > 0 else {
            return ProviderCheck(
                id: id, verdict: .notSeen, summary: "no request carried apns-expiration", source: Self.headerSource)
        }
        let past = dated.filter { Self.isPast(expiration: $0.1, at: $0.0.at) }
        let far = dated.filter { Self.isFarAhead(expiration: $0.1, at: $0.0.at) }
        let (pastCount, farCount) = (past.count + tally.past, far.count + tally.farAhead)
        let summary =
            "\(count) request\(count == 1 ? "" : "s") with apns-expiration: \(pastCount) already past on arrival, "
            + "\(farCount) more than a year ahead (milliseconds for seconds?)"
        let bad = (past + far).compactMap(\.0.apnsID) + tally.pastIDs + tally.farIDs
        return ProviderCheck(
            id: id, verdict: pastCount + farCount == 0 ? .pass : .fail, summary: summary, apnsIDs: bad,
            figures: [("past", Double(pastCount)), ("farAhead", Double(farCount))], source: Self.headerSource)
    }
}
