import APNsCore
import APNsInspection
import APNsStore
import NIOCore

/// The steps every push takes, whichever door it came through, each written once here:
/// 1. the fault rules (a `respond` refuses, a `delay` postpones the rest, a reset or GOAWAY ends it);
/// 2. the door's checks (validation, the provider's authorization for the topic and push type);
/// 3. the relay's commit, and what the store refused;
/// 4. the metrics, the fault's mark on a delayed one, and the lint.
/// Every refusal is journaled through the door; `answer` is called once, on `eventLoop`.
extension PushIntake {
    /// Takes a complete request through the steps. `submitted` is called just before the
    /// notification goes to the store (the gateway counts what is in flight). Call on `eventLoop`.
    /// `exam`: the report card's exam event, in place of any fault rule.
    func take<Door: IntakeDoor>(
        _ door: inout Door, on eventLoop: any EventLoop, submitted: (() -> Void)? = nil, exam: (FaultRule, FaultMark)? = nil,
        answer: @escaping (IntakeResult<Door.Accepted, Door.Refusal>) -> Void
    ) {
        // No rule (one atomic load): straight to the commit, no closure made on the hot path.
        guard let fault = exam ?? self.faultRule(for: door.faultRequest()) else {
            return self.commit(&door, fault: nil, on: eventLoop, submitted: submitted, answer: answer)
        }
        self.applyFault(fault, to: &door, on: eventLoop) { door, mark in
            var door = door
            self.commit(&door, fault: mark, on: eventLoop, submitted: submitted, answer: answer)
        } ended: { _, ending in
            answer(ending.ending { $0 })
        }
    }

    /// The fault step, the first of every door's, once ``faultRule(for:)`` found the rule that
    /// applies: a `respond` refuses (journaled through the door), a `delay` proceeds later with
    /// the rule's mark, a reset or GOAWAY leaves the request unanswered (journaled). Call on
    /// `eventLoop`.
    func applyFault<Door: FaultDoor>(
        _ fault: (rule: FaultRule, mark: FaultMark), to door: inout Door, on eventLoop: any EventLoop,
        proceed: @escaping (Door, FaultMark) -> Void, ended: (Door, IntakeResult<Never, Door.Refusal>) -> Void
    ) {
        let (rule, mark) = fault
        switch rule.action {
        case .respond(let reason, let status, let byte):
            let refusal = door.injected(reason: reason, status: status, statusByte: byte, by: mark)
            door.journal(refusal, fault: mark, in: self)
            ended(door, .refused(refusal))
        case .delay(let delay):
            let later = door
            eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { proceed(later, mark) }
        case .reset:
            door.journalUnanswered(goAway: nil, fault: mark, in: self)
            ended(door, .reset)
        case .goAway(let reason):
            door.journalUnanswered(goAway: reason, fault: mark, in: self)
            ended(door, .goAway(reason: reason))
        }
    }

    /// The fault rule that applies, with the mark its answer carries; nil (one atomic load) while
    /// there are no rules.
    func faultRule(for request: @autoclosure () -> FaultRequest) -> (FaultRule, FaultMark)? {
        guard let rule = self.inspection.fault(for: request()) else { return nil }
        return (rule, FaultMark(ruleID: rule.id, action: rule.action.name))
    }

    /// The binary gateway's check of a notification's token before the store takes it (a
    /// refusal after the commit could not be answered in order): the relay's, which knows the
    /// token policy.
    func binaryTokenRefusal(for notification: Notification) throws(StoreError) -> BinaryStatus? {
        try self.relay.binaryTokenRefusal(for: notification)
    }

    /// The door's checks, then the store; the answer once the notification is durable.
    private func commit<Door: IntakeDoor>(
        _ door: inout Door, fault: FaultMark?, on eventLoop: any EventLoop, submitted: (() -> Void)?,
        answer: @escaping (IntakeResult<Door.Accepted, Door.Refusal>) -> Void
    ) {
        let notification: Notification
        let aps: APSFacts?
        switch door.validate(in: self) {
        case .failure(let refusal):
            door.journal(refusal, fault: fault, in: self)
            return answer(.refused(refusal))
        case .success(let valid):
            (notification, aps) = valid
        }
        let door = door
        submitted?()
        self.relay.accept(notification, on: eventLoop) { result in
            switch result {
            case .success(let outcome):
                if let refusal = door.refusal(for: outcome, of: notification) {
                    door.journal(refusal, fault: fault, in: self)
                    return answer(.refused(refusal))
                }
                let metrics = self.inspection.metrics
                metrics.accepted(
                    door.interface,
                    after: .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds - door.started.uptimeNanoseconds)))
                if let fault { self.inspection.delayed(uniqueID: notification.uniqueID, by: fault) }
                let warnings = door.warnings(for: notification, aps: aps)
                if !warnings.isEmpty { metrics.warned(warnings) }
                answer(.accepted(door.accepted(notification, warnings: warnings, in: self)))
            case .failure(let error):
                // A line a push at debug: the store's writer sums up an outage (a full disk) at warning.
                self.logger.debug(
                    "could not store a push", metadata: ["store.error": "\(error)", "apns.interface": "\(door.interface)"])
                let refusal = door.refusal(for: error, of: notification)
                door.journal(refusal, fault: fault, in: self)
                answer(.refused(refusal))
            }
        }
    }
}
