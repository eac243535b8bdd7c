import APNsCore
import Logging

/// One info line per push, for a person watching the console: accepted (short token, topic,
/// interface, how long until it was stored) or rejected (status, reason, the same fields).
/// `serve --quiet` turns it off; so does a log level above info.
struct PushLog: Sendable {
    let logger: Logger
    let enabled: Bool

    init(logger: Logger, enabled: Bool) {
        self.logger = logger
        self.enabled = enabled && logger.logLevel <= .info
    }

    /// What a store commit accepted; on the writer thread.
    func committed(_ commit: StoreCommit) {
        guard self.enabled else { return }
        for change in commit.changes {
            guard case .accepted(let notification, _, let at, _, _) = change else { continue }
            let latency = max(0, at - notification.receivedAt)
            self.logger.info(
                "accepted \(Self.short(notification.token.hex)) \(notification.topic ?? "-") \(notification.source.rawValue) \(latency) ms",
                metadata: ["apns.unique_id": "\(notification.uniqueID)"]
            )
        }
    }

    func rejected(_ push: RejectedPush) {
        guard self.enabled else { return }
        let answer =
            push.httpStatus.map { "\($0) \(push.reason ?? "")" } ?? push.statusByte.map { "status byte \($0)" } ?? "refused"
        self.logger.info(
            "rejected \(answer) \(Self.short(push.token)) \(push.topic ?? "-") \(push.source.rawValue)",
            metadata: push.detail.map { ["apns.detail": "\($0)"] } ?? [:]
        )
    }

    static func short(_ token: String) -> String {
        token.count > 12 ? String(token.prefix(8)) + "…" : (token.isEmpty ? "-" : token)
    }
}
