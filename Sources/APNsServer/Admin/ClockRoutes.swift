import APNsCore
import APNsInspection
import NIOCore

/// `GET|POST /api/v1/clock`: the emulator's clock, moved forward for a test; a move sweeps and
/// steps the phone at once. They hold the clock, the phone and the relay, and nothing else.
struct ClockRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let clock: EmulatorClock
    let phone: Phone
    let relay: Relay

    /// `{"now", "real", "offsetMs", "offset"}`: the emulator's time, real time, and how far ahead.
    func clockState() -> Response {
        let offset = self.clock.offsetMillis
        var writer = JSONWriter()
        writer.object { members in
            members.member("now") { $0.string(Timestamp.rfc3339(millis: self.clock.nowMillis)) }
            members.member("real") { $0.string(Timestamp.rfc3339(millis: self.clock.realMillis)) }
            members.member("offsetMs") { $0.number(offset) }
            members.member("offset") { $0.string(Self.words(offset)) }
        }
        return Response(status: 200, body: writer.bytes)
    }

    /// Moves the clock forward, then sweeps at once: what the move expired leaves its queue now.
    func moveClock(body: [UInt8], on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response> {
        let move: ClockDocument.Move
        do {
            move = try RequestDocument.decode(ClockDocument.self, from: body, example: ClockDocument.example).move
        } catch {
            throw AdminError(.badRequest, error.message)
        }
        let latest = Timestamp.rfc3339(millis: EmulatorClock.latestMillis)
        switch move {
        case .advance(let milliseconds):
            guard self.clock.advance(by: milliseconds) == .moved else {
                throw AdminError(
                    .badRequest,
                    "advance: \(Self.words(milliseconds)) would take the clock past \(latest), the latest it moves to (dates after year 9999 have no RFC 3339 form)"
                )
            }
        case .set(let millis):
            switch self.clock.set(to: millis) {
            case .moved: break
            case .past:
                let now = Timestamp.rfc3339(millis: self.clock.nowMillis)
                throw AdminError(
                    .conflict,
                    "set: \(Timestamp.rfc3339(millis: millis)) is before the clock's now (\(now)); the clock only moves forward"
                )
            case .tooLate:
                throw AdminError(
                    .badRequest,
                    "set: \(Timestamp.rfc3339(millis: millis)) is past \(latest), the latest the clock moves to (dates after year 9999 have no RFC 3339 form)"
                )
            }
        }
        // What the move expired leaves its queue, local notifications it reached fire, Live
        // Activities turn stale, end or leave, service extensions run out of time and Scheduled
        // Summaries it reached are presented, before the answer.
        let step = ClockStep(phone: self.phone, relay: self.relay)
        return self.relay.sweep(on: eventLoop)
            .flatMap { step.run(on: eventLoop) }
            .map { self.clockState() }
            .failing(as: .unavailable, "the clock moved, but sweeping or firing failed: ")
    }

    /// An offset in words: `1h30m`, `0s`.
    static func words(_ millis: Int64) -> String {
        var rest = millis / 1000
        var text = ""
        for (unit, seconds) in [("d", Int64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where rest >= seconds {
            text += "\(rest / seconds)\(unit)"
            rest %= seconds
        }
        let milliseconds = millis % 1000
        if milliseconds > 0 { text += "\(milliseconds)ms" }
        return text.isEmpty ? "0s" : text
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/clock", on: \.clockRoutes) { routes, request in request.now(routes.clockState()) },
        AdminRoute("POST", "/api/v1/clock", cluster: .everyShard, on: \.clockRoutes) { routes, request throws(AdminError) in
            try request.later(routes.moveClock(body: request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var clockRoutes: ClockRoutes { ClockRoutes(clock: self.clock, phone: self.phone, relay: self.relay) }
}
