import APNsCore
import APNsInspection
import NIOCore

/// The legacy binary interface's pushes in the intake. The gateway's protocol decides when a
/// refusal is seen (only the error response names one, after everything before it committed), so
/// a refusal comes back with its journal record for the gateway to file when it names it.
extension PushIntake {
    /// What became of one binary notification on arrival.
    enum BinaryOutcome {
        /// Refused before the store with this status byte; `record` is journaled once the error
        /// response names it.
        case refused(BinaryStatus, record: RejectedPush, fault: FaultMark?)
        /// A fault rule resets the connection (journaled already).
        case reset
        /// Handed to the store: nil once it is durable, or the status it is refused with then
        /// (with its record, as above).
        case submitted(EventLoopFuture<(status: BinaryStatus, record: RejectedPush)?>)
    }

    /// Takes one binary notification for `topic` (the certificate's bundle id in strict mode: the
    /// binary interface has no topic field). Call on `eventLoop`.
    func take(
        _ request: BinaryPushRequest, topic: String?, ids: inout APNsIDGenerator, on eventLoop: any EventLoop
    ) -> BinaryOutcome {
        let receivedAt = self.clock()
        let started = NIODeadline.now()
        if let faulted = self.fault(request, topic: topic, receivedAt: receivedAt, ids: &ids) { return faulted }
        var generator = ids
        let validated = BinaryPushValidator().validateReading(request, topic: topic, nowMillis: receivedAt) {
            generator.timeOrderedUUID(nowMillis: receivedAt)
        }
        ids = generator
        let notification: Notification
        let aps: APSFacts?
        switch validated {
        case .failure(let rejection):
            self.logger.debug(
                "rejected binary push", metadata: ["apns.status": "\(rejection.status)", "apns.detail": "\(rejection.detail)"])
            return .refused(
                rejection.status, record: Self.record(request, topic: topic, rejection.status, receivedAt: receivedAt, ids: &ids),
                fault: nil)
        case .success(let valid):
            (notification, aps) = valid
        }
        if let status = self.binaryEarlyRefusal(of: notification) {
            return .refused(
                status, record: Self.record(request, topic: topic, status, receivedAt: receivedAt, ids: &ids), fault: nil)
        }
        let (inspection, logger, shard) = (self.inspection, self.logger, self.relay.shard)
        // A refusal after the commit is rare: its record's id comes from a generator of its own then.
        func refusalID() -> String {
            var ids = APNsIDGenerator(shard: shard)
            return ids.uuid()
        }
        let stored = self.relay.accept(notification, on: eventLoop).assumeIsolated().map {
            outcome -> (status: BinaryStatus, record: RejectedPush)? in
            if let refusal = Relay.binaryRefusal(for: outcome) {
                return (refusal, Self.record(request, topic: topic, refusal, receivedAt: receivedAt, id: refusalID()))
            }
            inspection.metrics.accepted(
                .binary, after: .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds - started.uptimeNanoseconds)))
            inspection.metrics.warned(PushLint.warnings(for: notification, aps: aps))
            return nil
        }.recover { error in
            logger.info("could not store a binary push", metadata: ["store.error": "\(error)"])
            return (
                .processingError, Self.record(request, topic: topic, .processingError, receivedAt: receivedAt, id: refusalID())
            )
        }
        return .submitted(stored.nonisolated())
    }

    /// What a fault rule that matches does to a binary notification; nil when none matches.
    private func fault(
        _ request: BinaryPushRequest, topic: String?, receivedAt: Int64, ids: inout APNsIDGenerator
    ) -> BinaryOutcome? {
        guard
            let rule = self.inspection.fault(
                for: FaultRequest(interface: .binary, token: { Hex.encode(request.token) }, topic: topic, pushType: nil))
        else { return nil }
        let mark = FaultMark(ruleID: rule.id, action: rule.action.name)
        switch rule.action {
        case .respond(_, _, let byte?):
            let status = BinaryStatus(code: byte) ?? BinaryStatus(code: byte, meaning: "Injected")
            return .refused(
                status, record: Self.record(request, topic: topic, status, receivedAt: receivedAt, fault: mark, ids: &ids),
                fault: mark)
        case .reset:
            let rejected = RejectedPush(request, id: ids.uuid(), topic: topic, statusByte: nil, receivedAt: receivedAt)
            self.inspection.rejected(rejected, fault: mark)
            return .reset
        case .respond, .delay, .goAway:
            // Rules only match the interfaces their action applies to.
            break
        }
        return nil
    }

    /// The journal's record of a refused binary notification.
    private static func record(
        _ request: BinaryPushRequest, topic: String?, _ status: BinaryStatus, receivedAt: Int64, fault: FaultMark? = nil,
        ids: inout APNsIDGenerator
    ) -> RejectedPush {
        self.record(request, topic: topic, status, receivedAt: receivedAt, fault: fault, id: ids.uuid())
    }

    private static func record(
        _ request: BinaryPushRequest, topic: String?, _ status: BinaryStatus, receivedAt: Int64, fault: FaultMark? = nil,
        id: String
    ) -> RejectedPush {
        var rejected = RejectedPush(request, id: id, topic: topic, statusByte: status.code, receivedAt: receivedAt)
        rejected.detail = fault.map { "injected by fault rule \($0.ruleID)" } ?? status.meaning
        return rejected
    }

    /// Refuses a token before submitting when the store would (see ``Relay/binaryTokenRefusal(for:)``).
    private func binaryEarlyRefusal(of notification: Notification) -> BinaryStatus? {
        do {
            return try self.relay.binaryTokenRefusal(for: notification)
        } catch {
            self.logger.info("could not look a token up", metadata: ["store.error": "\(error)"])
            return .processingError
        }
    }
}
