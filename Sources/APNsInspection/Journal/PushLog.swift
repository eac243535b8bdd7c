import APNsCore
import Logging
import Synchronization

/// What the console says of pushes. At `debug`, a line per push: accepted (short token, topic,
/// interface, how long until it was stored) or rejected (status, reason, the same fields). At
/// `info`, the default, one summary line per interval in which something arrived: how many were
/// accepted and at what rate, how many rejected and why. A line per push at the default level
/// cost a quarter of the rate under load and wrote 45 GB an hour; the journal and the inbox are
/// the record of each push. `serve --quiet` turns both off.
final class PushLog: Sendable {
    let logger: Logger
    /// A line per push (debug).
    let perPush: Bool
    /// A summary line per interval (info).
    let summaries: Bool
    private let counts = Mutex(Counts())

    struct Counts {
        var since = ContinuousClock.now
        var accepted = 0
        var rejected: [String: Int] = [:]
        var isEmpty: Bool { self.accepted == 0 && self.rejected.isEmpty }
    }

    init(logger: Logger, enabled: Bool) {
        self.logger = logger
        self.perPush = enabled && logger.logLevel <= .debug
        self.summaries = enabled && logger.logLevel <= .info
    }

    /// What a store commit accepted; on the writer thread.
    func committed(_ commit: StoreCommit) {
        guard self.summaries else { return }
        var accepted = 0
        for change in commit.changes {
            guard case .accepted(let notification, _, let at, _, _) = change else { continue }
            accepted += 1
            guard self.perPush else { continue }
            let latency = max(0, at - notification.receivedAt)
            self.logger.debug(
                "accepted \(Self.short(notification.token.hex)) \(notification.topic ?? "-") \(notification.source.rawValue) \(latency) ms",
                metadata: ["apns.unique_id": "\(notification.uniqueID)"]
            )
        }
        if accepted > 0 { self.counts.withLock { $0.accepted += accepted } }
    }

    func rejected(_ push: RejectedPush) {
        guard self.summaries else { return }
        let answer =
            push.wasNotProcessed
            ? "not processed (after a GOAWAY)"
            : push.httpStatus.map { "\($0) \(push.reason ?? "")" } ?? push.statusByte.map { "status byte \($0)" } ?? "refused"
        self.counts.withLock { $0.rejected[answer, default: 0] += 1 }
        guard self.perPush else { return }
        self.logger.debug(
            "rejected \(answer) \(Self.short(push.token)) \(push.topic ?? "-") \(push.source.rawValue)",
            metadata: push.detail.map { ["apns.detail": "\($0)"] } ?? [:]
        )
    }

    /// Logs what arrived since the last summary, if anything did, as one line.
    func summarize() {
        guard self.summaries else { return }
        let now = ContinuousClock.now
        let counts = self.counts.withLock { counts in
            defer { counts = Counts(since: now) }
            return counts
        }
        let elapsed = counts.since.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard let line = Self.summary(counts, over: seconds) else { return }
        self.logger.info("\(line)")
    }

    /// "in the last 5 s: 523,114 accepted (104,622/s); 12 rejected (400 BadDeviceToken 10, 413 PayloadTooLarge 2)"
    static func summary(_ counts: Counts, over seconds: Double) -> String? {
        guard !counts.isEmpty else { return nil }
        let rate = seconds > 0 ? Int((Double(counts.accepted) / seconds).rounded()) : counts.accepted
        let tenths = Int((seconds * 10).rounded())
        let span = seconds < 10 ? "\(tenths / 10).\(tenths % 10)" : Self.grouped(Int(seconds.rounded()))
        var line = "in the last \(span) s: \(Self.grouped(counts.accepted)) accepted (\(Self.grouped(rate))/s)"
        let rejected = counts.rejected.values.reduce(0, +)
        if rejected > 0 {
            let reasons = counts.rejected.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                .map { "\($0.key) \(Self.grouped($0.value))" }
            line += "; \(Self.grouped(rejected)) rejected (\(reasons.joined(separator: ", ")))"
        }
        return line
    }

    /// 1234567 as "1,234,567".
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(abs(value)))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    static func short(_ token: String) -> String {
        token.count > 12 ? String(token.prefix(8)) + "…" : (token.isEmpty ? "-" : token)
    }
}
