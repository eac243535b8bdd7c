import APNsCore
import CoreMetrics
import Prometheus
import Synchronization

/// The emulator's metrics, made once through swift-metrics on the emulator's own Prometheus
/// registry (several emulators in one process, as in tests, do not mix), and rendered for
/// `GET /metrics`. No device token is ever a label.
public final class EmulatorMetrics: Sendable {
    private struct RejectionKey: Hashable {
        var interface: String
        var status: String
        var reason: String
    }

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// One metric per interface, picked by comparison rather than hashing: these are counted for
    /// every notification.
    private struct PerInterface<Metric: Sendable>: Sendable {
        let http2: Metric
        let binary: Metric
        let webPush: Metric

        init(_ make: (Interface) -> Metric) {
            self.http2 = make(.http2)
            self.binary = make(.binary)
            self.webPush = make(.webPush)
        }

        subscript(_ interface: Interface) -> Metric {
            interface == .http2 ? self.http2 : interface == .webPush ? self.webPush : self.binary
        }
        var all: [(Interface, Metric)] { [(.http2, self.http2), (.binary, self.binary), (.webPush, self.webPush)] }
    }

    /// One metric for each environment, chosen without hashing (an accepted notification counts in one).
    private struct PerEnvironment<Metric: Sendable>: Sendable {
        let development: Metric
        let production: Metric

        init(_ make: (APNsEnvironment) -> Metric) {
            self.development = make(.development)
            self.production = make(.production)
        }

        subscript(_ environment: APNsEnvironment) -> Metric {
            environment == .production ? self.production : self.development
        }
        var all: [Metric] { [self.development, self.production] }
    }

    private let accepted: PerInterface<CoreMetrics.Counter>
    /// Accepted and rejected pushes by the endpoint they were sent to, and pushes refused for a
    /// token of the other environment, by endpoint.
    private let acceptedByEnvironment: PerEnvironment<CoreMetrics.Counter>
    private let rejectedByEnvironment: PerEnvironment<CoreMetrics.Counter>
    private let otherEnvironment: PerEnvironment<CoreMetrics.Counter>
    private let acceptLatency: PerInterface<CoreMetrics.Timer>
    private let finished: [LogStatus: CoreMetrics.Counter]
    private let rejected = Mutex<[RejectionKey: CoreMetrics.Counter]>([:])
    private let warnings = Mutex<[String: CoreMetrics.Counter]>([:])
    private let activityPushes = Mutex<[String: CoreMetrics.Counter]>([:])
    private let faults: CoreMetrics.Counter
    /// Requests above a GOAWAY's last-stream-id: neither processed nor answered.
    private let notProcessed: CoreMetrics.Counter
    private let commitBatch: CoreMetrics.Recorder
    private let commitDuration: CoreMetrics.Timer
    private let queueDepth: CoreMetrics.Gauge
    private let devicesConnected: CoreMetrics.Gauge
    /// Broadcast push's counters and gauges.
    public let broadcast: BroadcastMetrics
    /// The Push Notifications Console's metrics, by push type and priority.
    public let console: ConsoleMetrics
    private let providersConnected: PerInterface<CoreMetrics.Gauge>
    /// Provider connections opened since the start (or the last reset), by interface: what a
    /// report on connection reuse reads beside the number open now.
    private let providerConnectionsOpened: PerInterface<CoreMetrics.Counter>
    /// Provider connections open now, by interface.
    private let http2Connections = Atomic<Int>(0)
    private let binaryConnections = Atomic<Int>(0)
    private let webPushConnections = Atomic<Int>(0)

    public init() {
        var factory = PrometheusMetricsFactory(registry: self.registry)
        factory.durationHistogramBuckets["apns_accept_latency_seconds"] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1),
        ]
        factory.durationHistogramBuckets["apns_store_commit_duration_seconds"] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        factory.valueHistogramBuckets["apns_store_commit_batch_size"] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000]
        self.factory = factory
        self.accepted = PerInterface {
            CoreMetrics.Counter(
                label: "apns_notifications_accepted_total", dimensions: [("interface", $0.rawValue)], factory: factory)
        }
        let byEnvironment = { (result: String) in
            PerEnvironment {
                CoreMetrics.Counter(
                    label: "apns_notifications_by_environment_total",
                    dimensions: [("environment", $0.rawValue), ("result", result)],
                    factory: factory)
            }
        }
        (self.acceptedByEnvironment, self.rejectedByEnvironment) = (byEnvironment("accepted"), byEnvironment("rejected"))
        self.otherEnvironment = PerEnvironment {
            CoreMetrics.Counter(
                label: "apns_notifications_other_environment_total", dimensions: [("environment", $0.rawValue)], factory: factory)
        }
        self.acceptLatency = PerInterface {
            CoreMetrics.Timer(label: "apns_accept_latency_seconds", dimensions: [("interface", $0.rawValue)], factory: factory)
        }
        self.providersConnected = PerInterface {
            CoreMetrics.Gauge(label: "apns_providers_connected", dimensions: [("interface", $0.rawValue)], factory: factory)
        }
        self.providerConnectionsOpened = PerInterface {
            CoreMetrics.Counter(
                label: "apns_provider_connections_opened_total", dimensions: [("interface", $0.rawValue)], factory: factory)
        }
        var finished: [LogStatus: CoreMetrics.Counter] = [:]
        for status in LogStatus.allCases {
            finished[status] = CoreMetrics.Counter(label: "apns_notifications_\(status)_total", factory: factory)
        }
        self.finished = finished
        self.faults = CoreMetrics.Counter(label: "apns_faults_injected_total", factory: factory)
        self.notProcessed = CoreMetrics.Counter(label: "apns_notifications_not_processed_total", factory: factory)
        self.commitBatch = CoreMetrics.Recorder(label: "apns_store_commit_batch_size", factory: factory)
        self.commitDuration = CoreMetrics.Timer(label: "apns_store_commit_duration_seconds", factory: factory)
        self.queueDepth = CoreMetrics.Gauge(label: "apns_queue_depth", factory: factory)
        self.devicesConnected = CoreMetrics.Gauge(label: "apns_devices_connected", factory: factory)
        self.broadcast = BroadcastMetrics(factory: factory)
        self.console = ConsoleMetrics(factory: factory)
    }

    /// Counts what a store commit did; on the writer thread. Each counter is added to once a
    /// commit, by what the commit's changes came to: a commit under load holds hundreds of
    /// notifications, and the writer's thread is the one every accepted notification waits for.
    public func committed(_ commit: StoreCommit) {
        self.commitBatch.record(commit.operations)
        self.commitDuration.recordNanoseconds(Self.nanoseconds(commit.duration))
        var tally = CommitTally()
        for change in commit.changes {
            switch change {
            case .accepted(let notification, _, _, let status, _):
                tally.accepted(notification.source, notification.environment)
                if let status { tally.finished(status) }
            case .left(_, _, let status, _):
                tally.finished(status)
            case .cleared, .forgotten, .unkept:
                break
            }
        }
        self.add(tally)
    }

    private func add(_ tally: CommitTally) {
        if tally.interfaces[0] > 0 { self.accepted.http2.increment(by: tally.interfaces[0]) }
        if tally.interfaces[1] > 0 { self.accepted.binary.increment(by: tally.interfaces[1]) }
        if tally.interfaces[2] > 0 { self.accepted.webPush.increment(by: tally.interfaces[2]) }
        if tally.environments[0] > 0 { self.acceptedByEnvironment.development.increment(by: tally.environments[0]) }
        if tally.environments[1] > 0 { self.acceptedByEnvironment.production.increment(by: tally.environments[1]) }
        for slot in tally.statuses.indices where tally.statuses[slot] > 0 {
            guard let status = LogStatus(rawValue: UInt8(slot)) else { continue }
            self.finished[status]?.increment(by: tally.statuses[slot])
        }
    }

    /// A provider's request was answered 200 (or, on the binary interface, stored) this long after it arrived.
    public func accepted(_ interface: Interface, after duration: Duration) {
        self.acceptLatency[interface].recordNanoseconds(Self.nanoseconds(duration))
    }

    /// Counts a rejected request under its interface, status and reason (a reason made up by a
    /// fault rule is counted too: rules are few).
    public func rejected(_ push: RejectedPush, faulted: Bool) {
        if faulted { self.faults.increment() }
        // Not a refusal: the client got no answer and may send it again.
        if push.wasNotProcessed { return self.notProcessed.increment() }
        if let environment = push.environment {
            self.rejectedByEnvironment[environment].increment()
            // BadDeviceToken (or status 8) for a token of the other environment's builds.
            if APNsEnvironment.isOtherEnvironment(explanation: push.detail) { self.otherEnvironment[environment].increment() }
        }
        let key = RejectionKey(
            interface: push.source.rawValue,
            status: push.httpStatus.map(String.init) ?? push.statusByte.map(String.init) ?? "none",
            reason: push.reason ?? push.statusByte.flatMap { BinaryStatus(code: $0)?.meaning } ?? "none"
        )
        let counter = self.rejected.withLock { counters in
            if let counter = counters[key] { return counter }
            let dimensions = [("interface", key.interface), ("status", key.status), ("reason", key.reason)]
            let counter = CoreMetrics.Counter(
                label: "apns_notifications_rejected_total", dimensions: dimensions, factory: self.factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts the warnings of an accepted notification, under their code.
    public func warned(_ warnings: [PushWarning]) {
        for warning in warnings {
            let counter = self.warnings.withLock { counters in
                if let counter = counters[warning.code] { return counter }
                let counter = CoreMetrics.Counter(
                    label: "apns_notifications_warnings_total", dimensions: [("code", warning.code)], factory: self.factory)
                counters[warning.code] = counter
                return counter
            }
            counter.increment()
        }
    }

    /// Counts a Live Activity push by what the phone did with it (`applied`, `ignored`, `started`,
    /// `not started`) and why (a refusal's code, or `none`).
    public func liveActivityPush(outcome: String, reason: String) {
        let key = outcome + "\u{0}" + reason
        let counter = self.activityPushes.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "apns_live_activity_pushes_total", dimensions: [("outcome", outcome), ("reason", reason)],
                factory: self.factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// A fault rule shaped an answer that is not a rejection (a delay).
    public func faultInjected() { self.faults.increment() }

    /// A provider connection opened (+1) or closed (-1).
    public func providerConnection(_ interface: Interface, _ delta: Int) {
        if delta > 0 { self.providerConnectionsOpened[interface].increment(by: delta) }
        if interface == .http2 {
            self.http2Connections.wrappingAdd(delta, ordering: .relaxed)
        } else if interface == .webPush {
            self.webPushConnections.wrappingAdd(delta, ordering: .relaxed)
        } else {
            self.binaryConnections.wrappingAdd(delta, ordering: .relaxed)
        }
    }

    /// Sets every counter back to zero (`POST /api/v1/reset`); histograms keep their history.
    public func resetCounters() {
        for (_, counter) in self.accepted.all { counter.reset() }
        for counter in self.acceptedByEnvironment.all + self.rejectedByEnvironment.all + self.otherEnvironment.all {
            counter.reset()
        }
        for (_, counter) in self.providerConnectionsOpened.all { counter.reset() }
        for counter in self.finished.values { counter.reset() }
        self.faults.reset()
        self.rejected.withLock { counters in for counter in counters.values { counter.reset() } }
        self.warnings.withLock { counters in for counter in counters.values { counter.reset() } }
        self.activityPushes.withLock { counters in for counter in counters.values { counter.reset() } }
        self.broadcast.reset()
        self.console.reset()
    }

    /// The Prometheus text exposition, with the gauges read now.
    public func render(queueDepth: Int, devicesConnected: Int) -> [UInt8] {
        self.console.update()
        self.queueDepth.record(queueDepth)
        self.devicesConnected.record(devicesConnected)
        for (interface, gauge) in self.providersConnected.all {
            let open =
                interface == .http2
                ? self.http2Connections.load(ordering: .relaxed)
                : interface == .webPush
                    ? self.webPushConnections.load(ordering: .relaxed) : self.binaryConnections.load(ordering: .relaxed)
            gauge.record(open)
        }
        return self.registry.emitToBuffer()
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
