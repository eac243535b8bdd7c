import APNsAuth
import APNsCore
import APNsInspection
import APNsStore
import NIOCore

/// A push from a provider over HTTP/2 (a provider connection's stream, or the admin API's
/// `POST /api/v1/push`, which builds the same request): refused with APNs' reasons, checked
/// against the connection's credential, answered with the `apns-id`, the `apns-unique-id` and the
/// lint's warnings.
struct ProviderPushDoor: IntakeDoor {
    /// An APNs refusal; a 410 says since when the token is no longer valid.
    struct Refusal: Error {
        var rejection: Rejection
        var timestamp: Int64?

        init(_ rejection: Rejection, timestamp: Int64? = nil) { (self.rejection, self.timestamp) = (rejection, timestamp) }
    }
    typealias Accepted = (apnsID: String, uniqueID: String?, warnings: [PushWarning])

    let call: PushIntake.Call
    /// Who the connection's authentication says sent it; nil when any provider is accepted.
    let credential: ProviderCredential?

    var interface: Interface { .http2 }
    var started: NIODeadline { self.call.started }

    func faultRequest() -> FaultRequest {
        let request = self.call.request
        return FaultRequest(
            interface: .http2, token: { RejectedPush.token(fromPath: request.path) },
            topic: request.topic ?? self.credential?.defaultTopic, pushType: request.pushType)
    }

    func injected(reason: String?, status: Int?, statusByte: UInt8?, by fault: FaultMark) -> Refusal {
        let reason = Reason.injected(wire: reason ?? "", status: status)
        return Refusal(Rejection(reason: reason, apnsID: self.call.answerID(), detail: "injected by fault rule \(fault.ruleID)"))
    }

    func validate(in intake: PushIntake) -> Result<(Notification, APSFacts?), Refusal> {
        let call = self.call
        if intake.channelsOnly {
            let port = call.ids.port.map { "port \($0)" } ?? "this port"
            let elsewhere = intake.doors.map { "; \($0.pushes)" } ?? ""
            let reason = Reason.badPath.explained(
                "\(port) serves channel management (/1/apps/<bundle id>/channels, /all-channels) and broadcasts only\(elsewhere)")
            return .failure(Refusal(Rejection(reason: reason, apnsID: call.answerID())))
        }
        let (now, ids) = (call.receivedAt, call.ids)
        var notification: Notification
        let aps: APSFacts?
        // One pass over the payload checks it and reads what the lint needs.
        switch PushValidator().validateReading(
            call.request, nowMillis: now, source: .http2, environment: call.environment,
            generateID: { ids.makeID(nowMillis: now) })
        {
        case .failure(let rejection):
            intake.logger.debug(
                "rejected push",
                metadata: ["apns.reason": "\(rejection.reason.wire)", "apns.detail": "\(rejection.detail ?? "")"])
            return .failure(Refusal(rejection))
        case .success(let valid):
            (notification, aps) = valid
        }
        if let credential = self.credential {
            if let reason = ProviderAuthStateMachine.refusal(of: notification.pushType, credential: credential) {
                return .failure(Refusal(Rejection(reason: reason, apnsID: notification.apnsID)))
            }
            switch ProviderAuthStateMachine.topic(for: notification.topic, credential: credential) {
            case .success(let topic): notification.topic = topic
            case .failure(let reason): return .failure(Refusal(Rejection(reason: reason, apnsID: notification.apnsID)))
            }
        }
        return .success((notification, aps))
    }

    func refusal(for outcome: StoreOutcome, of notification: Notification) -> Refusal? {
        Relay.refusal(for: outcome).map {
            Refusal(Rejection(reason: $0.reason, apnsID: notification.apnsID), timestamp: $0.timestamp)
        }
    }

    func refusal(for error: any Error, of notification: Notification) -> Refusal {
        Refusal(
            Rejection(
                reason: Relay.reason(for: error), apnsID: notification.apnsID, detail: "the emulator could not store it: \(error)"
            ))
    }

    func warnings(for notification: Notification, aps: APSFacts?) -> [PushWarning] {
        PushLint.warnings(for: notification, aps: aps)
    }

    func accepted(_ notification: Notification, warnings: [PushWarning], in intake: PushIntake) -> Accepted {
        (notification.apnsID, notification.environment == .development ? notification.uniqueID : nil, warnings)
    }

    /// Every 410 (Unregistered, ExpiredToken) says since when the token is no longer valid:
    /// client libraries read the field unconditionally.
    func journal(_ refusal: Refusal, fault: FaultMark?, in intake: PushIntake) {
        intake.journalRefusal(self.call, refusal.rejection, fault: fault)
    }

    func journalUnanswered(goAway reason: String?, fault: FaultMark, in intake: PushIntake) {
        let call = self.call
        let status = reason.map { Reason(wire: $0)?.status ?? 503 }
        var rejected = RejectedPush(
            call.request, id: call.ids.makeID(), apnsID: call.answerID(), reason: reason, httpStatus: status,
            receivedAt: call.receivedAt)
        rejected.detail =
            reason == nil
            ? "fault rule \(fault.ruleID) reset the connection: nothing was answered"
            : "fault rule \(fault.ruleID) sent GOAWAY (\(reason ?? "")) before this stream: it and the streams after it were not processed"
        rejected.port = call.ids.port
        rejected.environment = call.environment
        intake.inspection.rejected(rejected, fault: fault)
    }

    /// The outcome the provider doors answer with.
    static func outcome(_ result: IntakeResult<Accepted, Refusal>, receivedAt: Int64) -> ProviderOutcome {
        result.map(accepted: { .push($0) }) { refusal in
            var refusal = refusal
            refusal.timestamp = refusal.timestamp ?? (refusal.rejection.reason.status == 410 ? receivedAt : nil)
            return .push(refusal)
        }
    }
}
