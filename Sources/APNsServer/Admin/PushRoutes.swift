import APNsCore
import APNsInspection
import APNsWire
import NIOCore

/// `POST /api/v1/push`: a push handed to the provider API's intake in process, as a provider
/// connection without a client certificate would hand it (strict mode authenticates its
/// `authorization` as a provider token); the answer is APNs' answer (`{"status", "apnsId",
/// "uniqueId", "reason", "timestamp", "detail", "warnings"}`). The web inbox's send form uses it.
/// It holds the provider API's context (its intake and authentication rules) and nothing else.
struct PushRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let provider: ProviderContext?

    /// How long the answer is waited for: a delay fault may hold it longer (202 then: taken, not
    /// answered yet; the push shows in the journal once it is).
    static let pushAnswerTimeout = TimeAmount.seconds(8)

    func push(body: [UInt8], on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response> {
        let document: PushDocument
        do {
            document = try RequestDocument.decode(PushDocument.self, from: body, example: PushDocument.example)
        } catch {
            throw AdminError(.badRequest, error.message)
        }
        guard let provider = self.provider else {
            throw AdminError(.unavailable, "this emulator serves no HTTP/2 provider API")
        }
        var request = HTTP2PushRequestDecoder.request(
            from: [(":method", "POST"), (":path", "/3/device/\(document.token)")] + document.headers)
        // The endpoint it is sent to, as the :authority of Apple's host would choose it.
        if let environment = document.environment { request.hostEnvironment = environment }
        document.payload.withUnsafeBytes { request.appendBody($0) }
        // As a connection of its own: its own ids, its own authentication state. Routes run on
        // `eventLoop`, which the intake answers on.
        let connection = provider.connectionState(certificate: nil)
        let decision = connection.authenticate(
            request.authorization, nowMillis: provider.realClock(), verifier: provider.verifier)
        let intake = provider.intake
        let answered = eventLoop.makePromise(of: Response.self)
        var done = false
        var timeout: Scheduled<Void>?
        let finish = { (response: Response) in
            guard !done else { return }
            done = true
            timeout?.cancel()
            answered.succeed(response)
        }
        intake.take(intake.call(request, ids: connection), authentication: decision, on: eventLoop) { outcome in
            finish(Self.answer(outcome))
            // A broadcast's news for the devices follows its answer, as at the provider port.
            switch outcome {
            case .accepted(.channel(let answer)), .refused(.channel(let answer)): answer.afterAnswer?()
            default: break
            }
        }
        if !done {
            timeout = eventLoop.assumeIsolated().scheduleTask(in: Self.pushAnswerTimeout) {
                let message = "taken, but not answered within 8 s (a delay fault?); it shows in the journal once it is"
                finish(Response(status: 202, body: Array(#"{"answered":false,"message":"\#(message)"}"#.utf8)))
            }
        }
        return answered.futureResult
    }

    /// APNs' answer as JSON.
    private static func answer(_ outcome: ProviderOutcome) -> Response {
        var status = 200
        var apnsID: String?
        var uniqueID: String?
        var reason: String?
        var timestamp: Int64?
        var detail: String?
        var warnings: [String] = []
        switch outcome {
        case .accepted(.push(let accepted)):
            (apnsID, uniqueID, warnings) = (accepted.apnsID, accepted.uniqueID, accepted.warnings.map(\.description))
        case .refused(.push(let refusal)):
            let rejection = refusal.rejection
            (status, apnsID, reason, timestamp) = (
                rejection.reason.status, rejection.apnsID, rejection.reason.wire, refusal.timestamp
            )
            detail = rejection.detail ?? rejection.reason.explanation
        case .accepted(.channel(let answer)), .refused(.channel(let answer)):
            (status, reason, detail) = (answer.status, answer.reason?.wire, answer.reason.map { answer.detail ?? $0.explanation })
        case .reset:
            return AdminError(
                .badGateway, "a fault rule reset the provider's connection: no answer came (the journal shows the push)"
            ).response
        case .goAway(let why):
            return AdminError(
                .badGateway,
                "a fault rule sent the provider's connection away (GOAWAY \(why)): no answer came (the journal shows the push)"
            ).response
        }
        var writer = JSONWriter()
        writer.object { members in
            members.member("status") { $0.number(status) }
            members.member("apnsId") { $0.optionalString(apnsID) }
            members.member("uniqueId") { $0.optionalString(uniqueID) }
            members.member("reason") { $0.optionalString(reason) }
            members.member("timestamp") { writer in if let timestamp { writer.number(timestamp) } else { writer.raw("null") } }
            members.member("detail") { $0.optionalString(detail.flatMap { $0.isEmpty ? nil : $0 }) }
            members.member("warnings") { $0.array(warnings) { $0.string($1) } }
        }
        return Response(status: 200, body: writer.bytes)
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("POST", "/api/v1/push", cluster: .bodyTokenOwner, on: \.pushRoutes) { routes, request throws(AdminError) in
            try request.later(routes.push(body: request.body, on: request.eventLoop))
        }
    ]
}

extension AdminRouter {
    var pushRoutes: PushRoutes { PushRoutes(provider: self.provider) }
}
