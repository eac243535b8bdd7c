import APNsInspection
import Testing

/// The report card's memory stays bounded for a provider that opens a connection and signs a
/// token for every push under load (the pattern Pushy issue 568 describes), and a request answered
/// 200 far from any refusal is counted, not kept.
@Suite("Provider ledger")
struct ProviderLedgerTests {
    @Test("a connection and a token per push: at most 20,000 of each kept, every request counted")
    func bounded() throws {
        let ledger = ProviderLedger()
        let provider = ProviderIdentity.token(teamID: "TEAM000001", keyID: "KEY0000001")
        let count = ProviderHistory.keptConnections + 2_500
        for n in 0..<count {
            let connection = UInt64(n + 1)
            var tally = ProviderTally()
            tally.count(at: Int64(n), apnsID: "id-\(n)", pushType: "alert", backgroundAt10: false, expiration: nil)
            ledger.record([
                .opened(connection: connection, at: Int64(n), peer: "127.0.0.1"),
                .identified(
                    connection: connection, provider: provider, token: "bearer token-\(n)", issuedAt: Int64(n / 1000),
                    at: Int64(n)),
                .tally(connection: connection, tally),
                .closed(connection: connection, at: Int64(n)),
            ])
        }
        let history = try #require(ledger.history(of: provider.id))
        #expect(history.requests == count && history.recent.isEmpty && history.tally.requests == count)
        #expect(history.connections.count <= ProviderHistory.keptConnections)
        #expect(history.tokens.count <= ProviderHistory.keptTokens)
        let report = ProviderReport(history, exam: false)
        #expect(report.checks.first { $0.id == "connection-reuse" }?.verdict == .fail)
        #expect(report.checks.first { $0.id == "token-reuse" }?.verdict == .fail)
    }

    /// RFC 9113, section 6.8: a stream above the GOAWAY's last stream id was not processed. The
    /// request that met the GOAWAY is recorded as it is answered, which may be a millisecond before
    /// the GOAWAY itself: it is still unprocessed, and lost unless sent again.
    @Test("a request above the GOAWAY's last stream, recorded just before it, is unprocessed; lost until sent again")
    func goAwayRecordedFirst() throws {
        let provider = ProviderIdentity.anonymous(peer: "127.0.0.1")
        func record(_ connection: UInt64, stream: Int32, at: Int64) -> ProviderEvent {
            .request(
                ProviderRequestRecord(
                    at: at, connection: connection, stream: stream, token: "ab", apnsID: "id-\(connection)-\(stream)",
                    status: 0, reason: nil, pushType: "alert", priority: nil, expiration: nil, fingerprint: 42))
        }
        let events: [ProviderEvent] = [
            .opened(connection: 1, at: 1_000, peer: "127.0.0.1"),
            .identified(connection: 1, provider: provider, token: nil, issuedAt: nil, at: 1_000),
            record(1, stream: 23, at: 1_000),
            .goAway(connection: 1, lastStream: 21, at: 1_001),
        ]
        let lost = ProviderLedger()
        lost.record(events)
        let check = try Self.goAwayCheck(lost, provider)
        #expect(
            check.verdict == .fail && check.summary.contains("left 1 request unprocessed; 1 of them never sent again"),
            "\(check.summary)")

        let resent = ProviderLedger()
        resent.record(
            events + [
                .opened(connection: 2, at: 1_050, peer: "127.0.0.1"),
                .identified(connection: 2, provider: provider, token: nil, issuedAt: nil, at: 1_050),
                record(2, stream: 1, at: 1_060),
            ])
        let recovered = try Self.goAwayCheck(resent, provider)
        #expect(recovered.verdict == .pass, "\(recovered.summary)")
    }

    private static func goAwayCheck(_ ledger: ProviderLedger, _ provider: ProviderIdentity) throws -> ProviderCheck {
        let history = try #require(ledger.history(of: provider.id))
        return try #require(ProviderReport(history, exam: false).checks.first { $0.id == "goaway-recovery" })
    }
}
