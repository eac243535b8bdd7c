import APNsCore
import Logging
import Synchronization

/// What the admin API sees and steers, as the front doors and the store report to it: the journal,
/// the fault rules and the metrics.
public final class Inspection: Sendable {
    public let journal: Journal
    public let faults: FaultBook
    public let metrics: EmulatorMetrics
    /// The report card's memory of every provider (``ProviderLedger``).
    public let providers: ProviderLedger
    private let logger: Logger
    private let pushLog: PushLog
    /// Where rejected requests, channel requests and broadcasts are kept across restarts (the store), once one is given.
    private let requestKeeper = Mutex<(@Sendable (_ receivedAt: Int64, _ id: String, _ record: [UInt8]) -> Void)?>(nil)

    /// `logPushes`: a summary of pushes (info) and a line per push (debug) in `logger`; `faultIDPrefix`:
    /// what fault rule ids start with (a shard's names it); `providerExam`: the report card's exam.
    public init(
        journalCapacity: Int, logger: Logger, logPushes: Bool = false, faultIDPrefix: String = "fault-",
        providerExam: Bool = false
    ) {
        self.providers = ProviderLedger(exam: providerExam)
        self.metrics = EmulatorMetrics()
        self.journal = Journal(capacity: journalCapacity, console: self.metrics.console)
        self.faults = FaultBook(idPrefix: faultIDPrefix)
        self.logger = logger
        self.pushLog = PushLog(logger: logger, enabled: logPushes)
    }

    /// The store's observer; on the writer thread.
    public func committed(_ commit: StoreCommit) {
        self.metrics.committed(commit)
        self.journal.apply(commit)
        self.pushLog.committed(commit)
    }

    /// A provider got an error for this request (`fault` set when a rule made it up).
    public func rejected(_ push: RejectedPush, fault: FaultMark?) {
        self.journal.rejected(push, fault: fault)
        if let keep = self.requestKeeper.withLock({ $0 }) {
            keep(push.receivedAt, push.id, RejectedPushCodec.encode(push, fault: fault))
        }
        self.metrics.rejected(push, faulted: fault != nil)
        self.pushLog.rejected(push)
    }

    /// A channel management request or a broadcast was answered (`fault` set when a rule shaped it).
    public func broadcast(_ record: BroadcastRecord, fault: FaultMark? = nil) {
        self.journal.broadcast(record, fault: fault)
        if let keep = self.requestKeeper.withLock({ $0 }) {
            keep(record.receivedAt, record.id, BroadcastRecordCodec.encode(record, fault: fault))
        }
    }

    /// From now on every rejected request, channel request and broadcast is also handed to `keep`
    /// (time, journal id, its record), so that the journal's history of them survives a restart.
    public func keepRequests(_ keep: @escaping @Sendable (_ receivedAt: Int64, _ id: String, _ record: [UInt8]) -> Void) {
        self.requestKeeper.withLock { $0 = keep }
    }

    /// Requests kept by ``keepRequests(_:)``, as the journal reads them back (records it cannot
    /// read are skipped).
    public static func keptRequests(from records: [[UInt8]]) -> [KeptRequest] {
        records.compactMap { record in
            if let (push, fault) = RejectedPushCodec.decode(record) { return .rejected(push, fault: fault) }
            if let (broadcast, fault) = BroadcastRecordCodec.decode(record) { return .broadcast(broadcast, fault: fault) }
            return nil
        }
    }

    /// The fault rule that applies to a provider request, if any; logged, since every faulted
    /// answer must be recognisable as such. The request is described only when there are rules,
    /// so a request costs one atomic load while there are none.
    public func fault(for describe: @autoclosure () -> FaultRequest) -> FaultRule? {
        guard self.faults.isActive else { return nil }
        let request = describe()
        guard let rule = self.faults.fault(for: request) else { return nil }
        self.logger.info(
            "injecting a fault",
            metadata: ["fault.id": "\(rule.id)", "fault.action": "\(rule.action.name)", "apns.interface": "\(request.interface)"]
        )
        return rule
    }

    /// Logs (at info) what arrived since the last call, if anything did: serve calls it every
    /// ``pushSummaryInterval``.
    public func summarizePushes() {
        self.pushLog.summarize()
    }

    /// How often the console sums up the pushes that arrived.
    public static let pushSummaryInterval = Duration.seconds(5)

    /// An accepted notification's answer was delayed by a fault rule.
    public func delayed(uniqueID: String, by fault: FaultMark) {
        self.journal.mark(uniqueID: uniqueID, fault: fault)
        self.metrics.faultInjected()
    }
}
