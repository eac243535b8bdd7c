import APNsCore
import Testing

@testable import APNsInspection

/// The metrics add a commit's changes to each counter once (issue 68: the writer's thread does
/// less per notification); what they count is what each change counted before.
@Suite("A commit's counts")
struct CommitTallyTests {
    static func notification(_ n: Int, source: Interface, environment: APNsEnvironment) -> Notification {
        var notification = JournalStateTests.notification(n)
        notification.source = source
        notification.environment = environment
        return notification
    }

    /// The value of the sample `name` exactly (labels included) in the Prometheus text; nil when absent.
    static func sample(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("a commit of mixed changes: each interface, endpoint and outcome counted, Web Push under no endpoint")
    func mixedCommit() throws {
        let metrics = EmulatorMetrics()
        var changes: [StoreChange] = []
        for n in 0..<5 {
            changes.append(
                .accepted(
                    Self.notification(n, source: .http2, environment: .development), sequence: UInt64(n), at: 0, status: nil,
                    connected: false))
        }
        for n in 5..<7 {
            changes.append(
                .accepted(
                    Self.notification(n, source: .binary, environment: .production), sequence: UInt64(n), at: 0,
                    status: .discarded, connected: false))
        }
        changes.append(
            .accepted(
                Self.notification(7, source: .webPush, environment: .production), sequence: 7, at: 0, status: nil,
                connected: false))
        changes.append(
            .left(.whole(Self.notification(0, source: .http2, environment: .development)), sequence: 0, status: .delivered, at: 1)
        )
        changes.append(
            .left(.whole(Self.notification(1, source: .http2, environment: .development)), sequence: 1, status: .replaced, at: 1))
        metrics.committed(StoreCommit(operations: changes.count, duration: .zero, changes: changes))
        // A second commit adds to the first's.
        metrics.committed(
            StoreCommit(
                operations: 1, duration: .zero,
                changes: [
                    .left(
                        .whole(Self.notification(2, source: .http2, environment: .development)), sequence: 2, status: .delivered,
                        at: 2)
                ]))
        let text = String(decoding: metrics.render(queueDepth: 0, devicesConnected: 0), as: UTF8.self)
        #expect(Self.sample(#"apns_notifications_accepted_total{interface="http2"}"#, in: text) == 5, "\(text)")
        #expect(Self.sample(#"apns_notifications_accepted_total{interface="binary"}"#, in: text) == 2)
        #expect(Self.sample(#"apns_notifications_accepted_total{interface="webpush"}"#, in: text) == 1)
        #expect(
            Self.sample(#"apns_notifications_by_environment_total{environment="development",result="accepted"}"#, in: text) == 5)
        #expect(
            Self.sample(#"apns_notifications_by_environment_total{environment="production",result="accepted"}"#, in: text) == 2,
            "Web Push has no APNs endpoint")
        #expect(Self.sample("apns_notifications_discarded_total", in: text) == 2)
        #expect(Self.sample("apns_notifications_delivered_total", in: text) == 2)
        #expect(Self.sample("apns_notifications_replaced_total", in: text) == 1)
        #expect(Self.sample("apns_notifications_expired_total", in: text) == 0)
    }
}
