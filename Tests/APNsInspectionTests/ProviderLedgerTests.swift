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
}
