import APNsCore
import APNsInspection
import APNsStore
import NIOCore

/// A notification on the legacy binary interface (commands 1 and 2): its topic is the
/// certificate's bundle id in strict mode (the interface has no topic field), its refusals are
/// status bytes the gateway's error response carries, journaled when it names them; nothing
/// answers an accepted one.
struct BinaryPushDoor: IntakeDoor {
    typealias Refusal = BinaryRefusal
    typealias Accepted = Void

    let request: BinaryPushRequest
    let topic: String?
    /// The gateway connection's id generator.
    let ids: ConnectionIDs
    let receivedAt: Int64
    let started: NIODeadline
    /// The shard whose ids a refusal after the commit takes.
    let shard: Shard?
    /// The environment of the gateway the connection reached.
    let environment: APNsEnvironment

    init(
        _ request: BinaryPushRequest, topic: String?, ids: ConnectionIDs, receivedAt: Int64, shard: Shard?,
        environment: APNsEnvironment
    ) {
        (self.request, self.topic, self.ids, self.receivedAt, self.shard) = (request, topic, ids, receivedAt, shard)
        self.environment = environment
        self.started = .now()
    }

    var interface: Interface { .binary }

    func faultRequest() -> FaultRequest {
        let token = self.request.token
        return FaultRequest(interface: .binary, token: { Hex.encode(token) }, topic: self.topic, pushType: nil)
    }

    /// Rules match the binary interface only with a status byte (a reason alone is HTTP/2's).
    mutating func injected(reason: String?, status: Int?, statusByte: UInt8?, by fault: FaultMark) -> Refusal {
        let byte = statusByte ?? BinaryStatus.processingError.code
        let status = BinaryStatus(code: byte) ?? BinaryStatus(code: byte, meaning: "Injected")
        return BinaryRefusal(status: status, record: self.record(status, fault: fault, id: self.ids.uuid()), fault: fault)
    }

    mutating func validate(in intake: PushIntake) -> Result<(Notification, APSFacts?), Refusal> {
        let receivedAt = self.receivedAt
        let ids = self.ids
        let validated = BinaryPushValidator().validateReading(
            self.request, topic: self.topic, nowMillis: receivedAt, environment: self.environment
        ) {
            ids.timeOrderedUUID(nowMillis: receivedAt)
        }
        switch validated {
        case .failure(let rejection):
            intake.logger.debug(
                "rejected binary push", metadata: ["apns.status": "\(rejection.status)", "apns.detail": "\(rejection.detail)"])
            return .failure(self.refusal(rejection.status))
        case .success(let valid):
            if let status = Self.tokenRefusal(of: valid.notification, in: intake) { return .failure(self.refusal(status)) }
            return .success(valid)
        }
    }

    /// The store's refusal, known before submitting (see ``Relay/binaryTokenRefusal(for:)``).
    private static func tokenRefusal(of notification: Notification, in intake: PushIntake) -> BinaryStatus? {
        do {
            return try intake.binaryTokenRefusal(for: notification)
        } catch {
            intake.logger.info("could not look a token up", metadata: ["store.error": "\(error)"])
            return .processingError
        }
    }

    func refusal(for outcome: StoreOutcome, of notification: Notification) -> Refusal? {
        Relay.binaryRefusal(for: outcome).map { self.refusalAfterCommit($0) }
    }

    func refusal(for error: any Error, of notification: Notification) -> Refusal {
        self.refusalAfterCommit(.processingError)
    }

    func warnings(for notification: Notification, aps: APSFacts?) -> [PushWarning] {
        PushLint.warnings(for: notification, aps: aps)
    }

    func accepted(_ notification: Notification, warnings: [PushWarning], in intake: PushIntake) {}

    /// Kept in the refusal: the gateway journals it when its error response names it.
    func journal(_ refusal: Refusal, fault: FaultMark?, in intake: PushIntake) {}

    mutating func journalUnanswered(goAway reason: String?, fault: FaultMark, in intake: PushIntake) {
        var rejected = RejectedPush(
            self.request, id: self.ids.uuid(), topic: self.topic, statusByte: nil, receivedAt: self.receivedAt)
        rejected.environment = self.environment
        intake.inspection.rejected(rejected, fault: fault)
    }

    private mutating func refusal(_ status: BinaryStatus) -> Refusal {
        BinaryRefusal(status: status, record: self.record(status, id: self.ids.uuid()), fault: nil)
    }

    /// A refusal after the commit is rare: its record's id comes from a generator of its own.
    private func refusalAfterCommit(_ status: BinaryStatus) -> Refusal {
        var ids = APNsIDGenerator(shard: self.shard)
        return BinaryRefusal(status: status, record: self.record(status, id: ids.uuid()), fault: nil)
    }

    /// The journal's record of a refused binary notification.
    private func record(_ status: BinaryStatus, fault: FaultMark? = nil, id: String) -> RejectedPush {
        var rejected = RejectedPush(self.request, id: id, topic: self.topic, statusByte: status.code, receivedAt: self.receivedAt)
        rejected.detail = fault.map { "injected by fault rule \($0.ruleID)" } ?? status.meaning
        rejected.environment = self.environment
        return rejected
    }
}
