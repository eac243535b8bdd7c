import APNsAuth
import APNsCore
import APNsInspection
import APNsStore
import NIOCore

/// A push to a Web Push subscription's endpoint (RFC 8030 §5), checked as Apple's push service
/// checks it: queued under the web app's token, `TTL` as its expiration, `Urgency` as its
/// priority, `Topic` as its collapse id; answered 201 with its `Location`, refused with a Web
/// Push status.
struct WebPushDoor: IntakeDoor {
    typealias Refusal = WebPushRefusal
    typealias Accepted = WebPushAnswer

    let request: WebPushRequest
    /// The subscription its path names, if any.
    let subscription: WebAppSubscription?
    let receivedAt: Int64
    let started: NIODeadline
    /// The push as checked: its subscription and the warnings its 201 carries.
    private var valid: ValidWebPush?

    init(_ request: WebPushRequest, subscription: WebAppSubscription?, receivedAt: Int64) {
        (self.request, self.subscription, self.receivedAt) = (request, subscription, receivedAt)
        self.started = .now()
    }

    var interface: Interface { .webPush }

    func faultRequest() -> FaultRequest {
        let token = self.subscription?.token.hex ?? ""
        return FaultRequest(interface: .webPush, token: { token }, topic: self.subscription?.origin, pushType: nil)
    }

    func injected(reason: String?, status: Int?, statusByte: UInt8?, by fault: FaultMark) -> Refusal {
        WebPushRefusal(status: status ?? 500, reason: reason ?? "", explanation: "injected by fault rule \(fault.ruleID)")
    }

    mutating func validate(in intake: PushIntake) -> Result<(Notification, APSFacts?), Refusal> {
        switch PushIntake.validate(webPush: self.request, self.subscription, nowMillis: self.receivedAt) {
        case .failure(let refusal):
            return .failure(refusal)
        case .success(let push):
            self.valid = push
            let now = self.receivedAt
            // Version 7, time-ordered, as every other id the emulator makes: the unique id sorts by arrival.
            let (apnsID, uniqueID) = intake.ids.timeOrderedPair(nowMillis: now)
            return .success(
                (push.notification(apnsID: apnsID, uniqueID: uniqueID, receivedAt: now, environment: intake.environment), nil))
        }
    }

    func refusal(for outcome: StoreOutcome, of notification: Notification) -> Refusal? {
        Relay.refusal(for: outcome).map {
            WebPushRefusal(status: $0.reason.status, reason: $0.reason.wire, explanation: $0.reason.explanation)
        }
    }

    func refusal(for error: any Error, of notification: Notification) -> Refusal {
        let reason = Relay.reason(for: error)
        return WebPushRefusal(status: reason.status, reason: reason.wire, explanation: "\(error)")
    }

    /// A web push's payload is encrypted: the APNs lint has nothing to read (its own warnings, an
    /// audience without the service's port, are in ``ValidWebPush``).
    func warnings(for notification: Notification, aps: APSFacts?) -> [PushWarning] { [] }

    func accepted(_ notification: Notification, warnings: [PushWarning], in intake: PushIntake) -> Accepted {
        if self.request.overHTTP1 { intake.inspection.journal.cameOverHTTP1(uniqueID: notification.uniqueID) }
        var headers = [("location", "\(self.request.origin ?? "https://localhost")/message/\(notification.uniqueID)")]
        if intake.environment == .development { headers.append(("apns-unique-id", notification.uniqueID)) }
        headers += (self.valid?.warnings ?? []).map { ("apns-emulator-warning", $0) }
        return WebPushAnswer(status: 201, headers: headers)
    }

    /// Journals a refusal (interface `webpush`).
    func journal(_ refusal: Refusal, fault: FaultMark?, in intake: PushIntake) {
        self.journal(reason: refusal.reason, status: refusal.status, detail: refusal.explanation, fault: fault, in: intake)
        intake.logger.debug(
            "refused a web push", metadata: ["apns.reason": "\(refusal.reason)", "apns.detail": "\(refusal.explanation)"])
    }

    /// A reset or GOAWAY fault closes the connection: the push is journaled with no status, as
    /// nothing answered it.
    func journalUnanswered(goAway reason: String?, fault: FaultMark, in intake: PushIntake) {
        let detail = "fault rule \(fault.ruleID) closed the connection: nothing was answered"
        self.journal(reason: reason, status: nil, detail: detail, fault: fault, in: intake)
    }

    private func journal(reason: String?, status: Int?, detail: String, fault: FaultMark?, in intake: PushIntake) {
        let subscription = self.valid?.subscription ?? self.subscription
        var rejected = RejectedPush(
            webPushTo: subscription?.token.hex ?? "", topic: subscription?.origin, path: self.request.path,
            id: intake.ids.timeOrdered(nowMillis: self.receivedAt), body: self.request.body, receivedAt: self.receivedAt)
        rejected.reason = reason
        rejected.httpStatus = status
        rejected.detail = detail
        rejected.port = self.request.port
        rejected.collapseID = self.request.headers["topic"]
        intake.inspection.rejected(rejected, fault: fault)
    }
}
