import APNsAuth
import APNsCore
import APNsInspection
import Logging
import NIOCore

/// The Web Push service's door into the one intake (RFC 8030 §5): a push to a subscription's
/// endpoint, checked as Apple's push service checks it, goes to the relay like any notification —
/// queued under the web app's token, `TTL` as its expiration, `Urgency` as its priority, `Topic`
/// as its collapse id (a pending message with the same topic is replaced) — with the same fault
/// rules, journal and metrics (interface `webpush`). Called on the connection's event loop, which
/// the answer comes back on.
extension PushIntake {
    /// Answers a Web Push request once, on `eventLoop`.
    func take(webPush request: WebPushRequest, on eventLoop: any EventLoop, answer: @escaping (WebPushAnswer) -> Void) {
        let now = self.clock()
        let id = Self.subscriptionID(request.path)
        let subscription = id.flatMap { self.relay.phone.webAppSubscription($0) }
        var fault: FaultMark?
        if let rule = self.inspection.fault(
            for: FaultRequest(
                interface: .webPush, token: { subscription?.token.hex ?? "" }, topic: subscription?.origin, pushType: nil))
        {
            fault = FaultMark(ruleID: rule.id, action: rule.action.name)
            switch rule.action {
            case .respond(let reason, let status, _):
                let refusal = WebPushRefusal(
                    status: status ?? 500, reason: reason ?? "", explanation: "injected by fault rule \(rule.id)")
                return answer(self.refuse(request, refusal, subscription, at: now, fault: fault))
            case .delay(let delay):
                eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                    self.check(request, subscription, at: now, fault: fault, on: eventLoop, answer: answer)
                }
                return
            case .reset, .goAway:
                return answer(WebPushAnswer(status: 0, reset: true))
            }
        }
        self.check(request, subscription, at: now, fault: fault, on: eventLoop, answer: answer)
    }

    private func check(
        _ request: WebPushRequest, _ subscription: WebAppSubscription?, at now: Int64, fault: FaultMark?,
        on eventLoop: any EventLoop, answer: @escaping (WebPushAnswer) -> Void
    ) {
        switch Self.validate(webPush: request, subscription, nowMillis: now) {
        case .failure(let refusal):
            answer(self.refuse(request, refusal, subscription, at: now, fault: fault))
        case .success(let push):
            self.store(push, request, at: now, fault: fault, on: eventLoop, answer: answer)
        }
    }

    /// The `<id>` of `/push/<id>`.
    static func subscriptionID(_ path: String) -> String? {
        let prefix = "/push/"
        guard path.hasPrefix(prefix) else { return nil }
        let id = path.dropFirst(prefix.count)
        return id.isEmpty || id.contains("/") || id.contains("?") ? nil : String(id)
    }

    /// Hands a valid push to the relay and answers 201 once it is durable.
    private func store(
        _ push: ValidWebPush, _ request: WebPushRequest, at now: Int64, fault: FaultMark?, on eventLoop: any EventLoop,
        answer: @escaping (WebPushAnswer) -> Void
    ) {
        let started = NIODeadline.now()
        // Version 7, time-ordered, as every other id the emulator makes: the unique id sorts by arrival.
        let (apnsID, uniqueID) = self.relay.phone.ids.withLock { ($0.timeOrderedUUID(nowMillis: now), $0.timeOrderedUUID(nowMillis: now)) }
        let notification = push.notification(apnsID: apnsID, uniqueID: uniqueID, receivedAt: now)
        self.relay.accept(notification, on: eventLoop) { result in
            switch result {
            case .success(let outcome):
                if let refusal = Relay.refusal(for: outcome) {
                    let why = WebPushRefusal(
                        status: refusal.reason.status, reason: refusal.reason.wire, explanation: refusal.reason.explanation)
                    return answer(self.refuse(request, why, push.subscription, at: now, fault: fault))
                }
                self.inspection.metrics.accepted(
                    .webPush, after: .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds - started.uptimeNanoseconds)))
                if let fault { self.inspection.delayed(uniqueID: notification.uniqueID, by: fault) }
                if request.overHTTP1 { self.inspection.journal.cameOverHTTP1(uniqueID: notification.uniqueID) }
                var headers = [("location", "\(request.origin ?? "https://localhost")/message/\(notification.uniqueID)")]
                if self.environment == .development { headers.append(("apns-unique-id", notification.uniqueID)) }
                headers += push.warnings.map { ("apns-emulator-warning", $0) }
                answer(WebPushAnswer(status: 201, headers: headers))
            case .failure(let error):
                self.logger.info("could not store a web push", metadata: ["store.error": "\(error)"])
                let reason = Relay.reason(for: error)
                answer(
                    self.refuse(
                        request, WebPushRefusal(status: reason.status, reason: reason.wire, explanation: "\(error)"),
                        push.subscription, at: now, fault: fault))
            }
        }
    }

    /// Journals a refusal (interface `webpush`) and gives the answer.
    private func refuse(
        _ request: WebPushRequest, _ refusal: WebPushRefusal, _ subscription: WebAppSubscription?, at now: Int64,
        fault: FaultMark?
    ) -> WebPushAnswer {
        var rejected = RejectedPush(
            webPushTo: subscription?.token.hex ?? "", topic: subscription?.origin, path: request.path,
            id: self.relay.phone.ids.withLock { $0.timeOrderedUUID(nowMillis: now) }, body: request.body, receivedAt: now)
        rejected.reason = refusal.reason
        rejected.httpStatus = refusal.status
        rejected.detail = refusal.explanation
        rejected.port = request.port
        rejected.collapseID = request.headers["topic"]
        self.inspection.rejected(rejected, fault: fault)
        self.logger.debug(
            "refused a web push", metadata: ["apns.reason": "\(refusal.reason)", "apns.detail": "\(refusal.explanation)"])
        return .refused(refusal)
    }
}
