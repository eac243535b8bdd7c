import APNsAuth
import APNsCore
import APNsInspection
import Logging
import NIOCore

/// Where every push comes in, whichever door it came through: a provider connection's HTTP/2
/// stream, the admin API's `POST /api/v1/push`, the channel management and broadcast routes
/// (``PushIntake+Binary`` for the legacy gateway). A door reads the request and decides who sent
/// it (its connection's authentication); from there the intake does the rest in one place —
/// fault rules, validation, the provider's authorization for the topic, the relay's commit, the
/// journal, the metrics and the lint — and gives the door an ``IntakeOutcome`` to translate.
/// Called on the door's event loop, which the answer comes back on.
struct PushIntake: Sendable {
    let relay: Relay
    let inspection: Inspection
    let environment: APNsEnvironment
    /// The emulator's clock (receipt times, expiry), in milliseconds since the UNIX epoch.
    let clock: @Sendable () -> Int64
    let logger: Logger
    /// Where requests belong, for what a refusal at the wrong door says; nil for an intake with
    /// no listeners (tests).
    var doors: FrontDoors? = nil
    /// A channels listener: only the channel management routes are served.
    var channelsOnly = false

    /// One request on its way through the intake: when it arrived, who numbers its ids, and the
    /// fault rule that shaped its answer, if one did.
    struct Call {
        let request: PushRequest
        let ids: ProviderConnectionState
        let receivedAt: Int64
        let started: NIODeadline
        var fault: FaultMark?

        /// The `apns-id` an error answer carries: the provider's when it is canonical, else a new one.
        func answerID() -> String { self.request.apnsID.flatMap { APNsID.isCanonical($0) ? $0 : nil } ?? self.ids.makeID() }
    }

    /// A call for `request`, received now.
    func call(_ request: PushRequest, ids: ProviderConnectionState) -> Call {
        Call(request: request, ids: ids, receivedAt: self.clock(), started: .now())
    }

    /// Takes a complete request whose sender the door has decided (`nil`: any provider is
    /// accepted) and calls `answer` once with its outcome, on `eventLoop`.
    func take(
        _ call: Call, authentication: ProviderAuthStateMachine.Decision?, on eventLoop: any EventLoop,
        answer: @escaping (IntakeOutcome) -> Void
    ) {
        var call = call
        var credential: ProviderCredential?
        switch authentication {
        case .refuse(let reason)?:
            self.logger.info(
                "refused a provider: \(reason.wire): \(reason.explanation)",
                metadata: ["apns.topic": "\(call.request.topic ?? "-")"])
            return answer(self.refuse(call, Rejection(reason: reason, apnsID: call.answerID())))
        case .allow(let allowed, _)?:
            credential = allowed
        case nil:
            break
        }
        guard let rule = self.inspection.fault(for: Self.faultRequest(call.request, credential: credential)) else {
            return self.process(call, credential: credential, on: eventLoop, answer: answer)
        }
        let mark = FaultMark(ruleID: rule.id, action: rule.action.name)
        call.fault = mark
        switch rule.action {
        case .respond(let wire, let status, _):
            let reason = Reason.injected(wire: wire ?? "", status: status)
            answer(
                self.refuse(call, Rejection(reason: reason, apnsID: call.answerID(), detail: "injected by fault rule \(rule.id)"))
            )
        case .delay(let delay):
            eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                self.process(call, credential: credential, on: eventLoop, answer: answer)
            }
        case .reset:
            self.journalUnanswered(call)
            answer(.reset)
        case .goAway(let reason):
            self.journalUnanswered(call, reason: reason)
            answer(.goAway(reason: reason))
        }
    }

    /// Validates and stores the request (after a delay, when a fault rule asked for one).
    private func process(
        _ call: Call, credential: ProviderCredential?, on eventLoop: any EventLoop, answer: @escaping (IntakeOutcome) -> Void
    ) {
        let request = call.request
        if BroadcastRoute.claims(request.path) {
            return self.manageChannels(call, credential: credential, on: eventLoop, answer: answer)
        }
        if self.channelsOnly {
            let port = call.ids.port.map { "port \($0)" } ?? "this port"
            let elsewhere = self.doors.map { "; \($0.pushes)" } ?? ""
            let reason = Reason.badPath.explained(
                "\(port) serves channel management (/1/apps/<bundle id>/channels, /all-channels) and broadcasts only\(elsewhere)")
            return answer(self.refuse(call, Rejection(reason: reason, apnsID: call.answerID())))
        }
        let now = call.receivedAt
        let ids = call.ids
        var notification: Notification
        let aps: APSFacts?
        // One pass over the payload checks it and reads what the lint needs.
        switch PushValidator().validateReading(
            request, nowMillis: now, source: .http2, generateID: { ids.makeID(nowMillis: now) })
        {
        case .failure(let rejection):
            self.logger.debug(
                "rejected push",
                metadata: ["apns.reason": "\(rejection.reason.wire)", "apns.detail": "\(rejection.detail ?? "")"])
            return answer(self.refuse(call, rejection))
        case .success(let valid):
            (notification, aps) = valid
        }
        if let credential {
            if let reason = ProviderAuthStateMachine.refusal(of: notification.pushType, credential: credential) {
                return answer(self.refuse(call, Rejection(reason: reason, apnsID: notification.apnsID)))
            }
            switch ProviderAuthStateMachine.topic(for: notification.topic, credential: credential) {
            case .success(let topic): notification.topic = topic
            case .failure(let reason): return answer(self.refuse(call, Rejection(reason: reason, apnsID: notification.apnsID)))
            }
        }
        self.store(notification, aps: aps, call, on: eventLoop, answer: answer)
    }

    /// Hands a valid notification to the relay and answers once it is durable.
    private func store(
        _ notification: Notification, aps: APSFacts?, _ call: Call, on eventLoop: any EventLoop,
        answer: @escaping (IntakeOutcome) -> Void
    ) {
        self.relay.accept(notification, on: eventLoop) { result in
            switch result {
            case .success(let outcome):
                if let refusal = Relay.refusal(for: outcome) {
                    return answer(
                        self.refuse(
                            call, Rejection(reason: refusal.reason, apnsID: notification.apnsID), timestamp: refusal.timestamp))
                }
                let metrics = self.inspection.metrics
                metrics.accepted(
                    .http2, after: .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds - call.started.uptimeNanoseconds)))
                if let fault = call.fault { self.inspection.delayed(uniqueID: notification.uniqueID, by: fault) }
                let warnings = PushLint.warnings(for: notification, aps: aps)
                metrics.warned(warnings)
                answer(
                    .accepted(
                        apnsID: notification.apnsID, uniqueID: self.environment == .development ? notification.uniqueID : nil,
                        warnings: warnings))
            case .failure(let error):
                self.logger.info("could not store a push", metadata: ["store.error": "\(error)"])
                answer(self.refuse(call, Rejection(reason: Relay.reason(for: error), apnsID: notification.apnsID)))
            }
        }
    }

    /// A request refused before its body is complete (its header list too large, its body
    /// longer than any push type allows): journaled, and the outcome to answer with.
    func refuseEarly(_ call: Call, _ reason: Reason, detail: String) -> IntakeOutcome {
        self.refuse(call, Rejection(reason: reason, apnsID: call.answerID(), detail: detail))
    }

    /// Journals a refusal and gives the outcome a provider sees: a channel request's as the
    /// channel APIs answer (named by `apns-request-id`), any other as a push's. Every 410
    /// (Unregistered, ExpiredToken) says since when the token is no longer valid: client
    /// libraries read the field unconditionally.
    private func refuse(_ call: Call, _ rejection: Rejection, timestamp: Int64? = nil) -> IntakeOutcome {
        let request = call.request
        if BroadcastRoute.claims(request.path) { return .channel(self.channelRefusal(call, rejection)) }
        var rejected = RejectedPush(
            request, id: call.ids.makeID(), apnsID: rejection.apnsID, reason: rejection.reason.wire,
            httpStatus: rejection.reason.status, receivedAt: call.receivedAt
        )
        let detail = rejection.detail ?? rejection.reason.explanation
        rejected.detail = detail.isEmpty ? nil : detail
        rejected.port = call.ids.port
        self.inspection.rejected(rejected, fault: call.fault)
        return .refused(rejection, timestamp: timestamp ?? (rejection.reason.status == 410 ? call.receivedAt : nil))
    }

    /// Journals a request read after its connection's GOAWAY named a lower last-stream-id: never
    /// processed (not stored, not answered), so the client may send it again (RFC 9113, 6.8).
    func notProcessed(_ request: PushRequest, ids: ProviderConnectionState, stream: Int32, lastStream: Int32) {
        var rejected = RejectedPush(
            request, id: ids.makeID(), apnsID: request.apnsID, reason: nil, httpStatus: nil, receivedAt: self.clock())
        rejected.detail =
            "not processed: stream \(stream) came after the GOAWAY naming stream \(lastStream) as the last one processed; the client may send it again"
        rejected.port = ids.port
        self.inspection.rejected(rejected, fault: nil)
    }

    /// Journals a request a fault rule left unanswered (its connection reset or sent away),
    /// filled like any rejection: its apns-id, the status a GOAWAY's reason stands for, what
    /// happened, the port.
    private func journalUnanswered(_ call: Call, reason: String? = nil) {
        let request = call.request
        if BroadcastRoute.claims(request.path) {
            var record = BroadcastRecord(
                id: call.ids.makeID(), request: request, operation: nil, bundleID: nil, receivedAt: call.receivedAt, httpStatus: 0
            )
            record.reason = reason
            return self.inspection.broadcast(record, fault: call.fault)
        }
        let status = reason.map { Reason(wire: $0)?.status ?? 503 }
        var rejected = RejectedPush(
            request, id: call.ids.makeID(), apnsID: call.answerID(), reason: reason, httpStatus: status,
            receivedAt: call.receivedAt)
        let rule = call.fault.map { "fault rule \($0.ruleID)" } ?? "a fault rule"
        rejected.detail =
            reason == nil
            ? "\(rule) reset the connection: nothing was answered"
            : "\(rule) sent GOAWAY (\(reason ?? "")) before this stream: it and the streams after it were not processed"
        rejected.port = call.ids.port
        self.inspection.rejected(rejected, fault: call.fault)
    }

    /// The fields fault rules look at: a channel request's interface is `broadcast`, its topic
    /// the bundle id of its path.
    static func faultRequest(_ request: PushRequest, credential: ProviderCredential?) -> FaultRequest {
        guard BroadcastRoute.claims(request.path) else {
            return FaultRequest(
                interface: .http2, token: { RejectedPush.token(fromPath: request.path) },
                topic: request.topic ?? credential?.defaultTopic, pushType: request.pushType)
        }
        let bundle = (try? BroadcastRoute.parse(request.path ?? "").get())?.bundleID
        var fault = FaultRequest(interface: .broadcast, token: { "" }, topic: bundle, pushType: request.pushType)
        fault.channelID = request.channelID
        return fault
    }
}
