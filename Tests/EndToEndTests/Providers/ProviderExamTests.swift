import APNsTestSupport
import Foundation
import Testing

/// The exam (`serve --provider-exam`): each provider meets a 429, a 503, a 410, a GOAWAY and an
/// expired provider token among its first requests, journaled as the exam's, and the report
/// judges how it reacted. The same two real clients as ``ProviderReportTests``.
@Suite("The report card's exam")
struct ProviderExamTests {
    @Test(
        "both clients meet every exam event; aioapns recovers from each as Apple asks, the bad client loses the GOAWAY's request")
    func exam() async throws {
        try await withEmulator(configure: { $0.providerExam = true }) { emulator in
            let tokens = try await ProviderReportTests.targets(emulator)
            let good = try await ProviderReportTests.run("good", keyID: "GOODKEY001", emulator, tokens: tokens)
            #expect(good.report["exam"] as? Bool == true)
            #expect(
                ProviderReportTests.verdicts(good.checks) == [
                    "token-reuse": "pass", "connection-reuse": "pass", "unregistered-respected": "pass", "backoff": "pass",
                    "futile-retries": "notSeen", "goaway-recovery": "pass", "push-type-and-priority": "pass",
                    "expiration": "notSeen", "environment": "pass",
                ], "\(good.checks)")
            #expect(ProviderReportTests.summary(good.checks, "goaway-recovery").contains("0 of them never sent again"))

            try await ProviderReportTests.throttleOnce(tokens[1], emulator)
            let bad = try await ProviderReportTests.run("bad", keyID: "BADKEY0001", emulator, tokens: tokens)
            #expect(
                ProviderReportTests.verdicts(bad.checks) == [
                    "token-reuse": "fail", "connection-reuse": "fail", "unregistered-respected": "fail", "backoff": "fail",
                    "futile-retries": "fail", "goaway-recovery": "fail", "push-type-and-priority": "pass",
                    "expiration": "notSeen", "environment": "pass",
                ], "\(bad.checks)")
            #expect(ProviderReportTests.summary(bad.checks, "goaway-recovery").contains("1 of them never sent again (lost)"))

            // Every exam event, for both, is in the journal as the exam's.
            let journal = try await emulator.journal("limit=500")
            let exams = journal.compactMap {
                ($0["fault"] as? [String: Any]).flatMap { $0["id"] as? String == "exam" ? $0["action"] as? String : nil }
            }
            for event in ["tooManyRequests", "serviceUnavailable", "unregistered", "goAway", "expiredProviderToken"] {
                #expect(exams.filter { $0 == "exam: \(event)" }.count == 2, "\(event) met by both: \(exams)")
            }
        }
    }
}
