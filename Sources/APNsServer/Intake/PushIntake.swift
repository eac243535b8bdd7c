import APNsAuth
import APNsCore
import APNsInspection
import Logging
import NIOCore

/// Where every push comes in, whichever door it came through: a provider connection's HTTP/2
/// stream, the admin API's `POST /api/v1/push`, the channel management and broadcast routes
/// the legacy gateway, the Web Push service. A door reads the request, decides who sent it (its
/// connection's authentication) and says how to answer (an ``IntakeDoor``); from there the
/// intake's steps (``PushIntake+Steps``) do the rest in one place — fault rules, validation, the
/// provider's authorization for the topic, the relay's commit, the journal, the metrics and the
/// lint — and give the door an ``IntakeResult`` to translate (a provider's, ``ProviderOutcome``).
/// Called on the door's event loop, which the answer comes back on.
struct PushIntake: Sendable {
    /// What the intake works with, shared by every copy: an intake is copied into each request's
    /// closures (the commit's, the answer's), and one reference costs one retain where a dozen
    /// fields cost a dozen, and a few bytes to move where they took a hundred and fifty.
    final class Parts: Sendable {
        let relay: Relay
        let webApps: PhoneWebApps
        let activities: LiveActivities
        let channels: BroadcastChannels
        let cluster: Cluster?
        let inspection: Inspection
        let ids: EmulatorIDs
        let environment: APNsEnvironment
        let clock: @Sendable () -> Int64
        let logger: Logger

        init(
            relay: Relay, webApps: PhoneWebApps, activities: LiveActivities, channels: BroadcastChannels, cluster: Cluster?,
            inspection: Inspection, ids: EmulatorIDs, environment: APNsEnvironment, clock: @escaping @Sendable () -> Int64,
            logger: Logger
        ) {
            self.relay = relay
            self.webApps = webApps
            self.activities = activities
            self.channels = channels
            self.cluster = cluster
            self.inspection = inspection
            self.ids = ids
            self.environment = environment
            self.clock = clock
            self.logger = logger
        }
    }

    private let parts: Parts
    var relay: Relay { self.parts.relay }
    /// The phone's web apps: the subscription a web push's endpoint names.
    var webApps: PhoneWebApps { self.parts.webApps }
    /// The phone's Live Activities, which a broadcast fans out to.
    var activities: LiveActivities { self.parts.activities }
    var channels: BroadcastChannels { self.parts.channels }
    /// The other shards, which channel requests tell.
    var cluster: Cluster? { self.parts.cluster }
    var inspection: Inspection { self.parts.inspection }
    /// The ids no connection numbers (a web push's, its refusal's); their shard is the emulator's.
    var ids: EmulatorIDs { self.parts.ids }
    var environment: APNsEnvironment { self.parts.environment }
    /// The emulator's clock (receipt times, expiry), in milliseconds since the UNIX epoch.
    var clock: @Sendable () -> Int64 { self.parts.clock }
    var logger: Logger { self.parts.logger }
    /// Where requests belong, for what a refusal at the wrong door says; nil for an intake with
    /// no listeners (tests).
    var doors: FrontDoors? = nil
    /// A channels listener: only the channel management routes are served.
    var channelsOnly = false

    init(_ parts: Parts, doors: FrontDoors? = nil) {
        self.parts = parts
        self.doors = doors
    }

    /// One request on its way through the intake: when it arrived, who numbers its ids, and
    /// whether it is channel management (decided here, once, from its path, and its route read
    /// once: the fault rules, a refusal's journal entry and the channel APIs all use it).
    struct Call {
        /// What came, read once and shared by every copy of the call (its door's, the commit's
        /// closure's): a request's fields are two hundred bytes, moved and retained at each copy.
        final class Arrival: Sendable {
            let request: PushRequest
            let channelRoute: Result<BroadcastRoute, Reason>?

            init(request: PushRequest, channelRoute: Result<BroadcastRoute, Reason>?) {
                self.request = request
                self.channelRoute = channelRoute
            }
        }

        let arrival: Arrival
        var request: PushRequest { self.arrival.request }
        let ids: ProviderConnectionState
        let receivedAt: Int64
        let started: NIODeadline
        /// A channel management or broadcast request's route (`/1/apps/...`, `/4/broadcasts/...`),
        /// or why its path names none; nil for a push.
        var channelRoute: Result<BroadcastRoute, Reason>? { self.arrival.channelRoute }
        /// A channel management or broadcast request, not a push.
        var isChannelRequest: Bool { self.channelRoute != nil }
        /// The fault rule that shaped a channel request's answer, if one did.
        var fault: FaultMark?
        /// The environment the request is for: the one its `:authority` names when that is one of
        /// Apple's hosts, else its endpoint's.
        let environment: APNsEnvironment

        /// The `apns-id` an error answer carries: the provider's when it is canonical, else a new one.
        func answerID() -> String { self.request.apnsID.flatMap { APNsID.isCanonical($0) ? $0 : nil } ?? self.ids.makeID() }
    }

    /// A call for `request`, received now.
    func call(_ request: PushRequest, ids: ProviderConnectionState) -> Call {
        Call(
            arrival: Call.Arrival(
                request: request,
                channelRoute: BroadcastRoute.claims(request.path) ? BroadcastRoute.parse(request.path ?? "") : nil),
            ids: ids, receivedAt: self.clock(), started: .now(), environment: request.hostEnvironment ?? self.environment)
    }

    /// Takes a complete request whose sender the door has decided (`nil`: any provider is
    /// accepted) and calls `answer` once with its outcome, on `eventLoop`: a push through the
    /// intake's steps (``take(_:on:submitted:answer:)``), a channel request to the channel APIs.
    /// `exam`: the report card's exam event the request meets, applied as a fault rule would be.
    func take(
        _ call: Call, authentication: ProviderAuthStateMachine.Decision?, on eventLoop: any EventLoop,
        exam: (FaultRule, FaultMark)? = nil, answer: @escaping (ProviderOutcome) -> Void
    ) {
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
        if call.isChannelRequest { return self.takeChannelRequest(call, credential: credential, on: eventLoop, answer: answer) }
        var door = ProviderPushDoor(call: call, credential: credential)
        let receivedAt = call.receivedAt
        self.take(&door, on: eventLoop, exam: exam) { answer(ProviderPushDoor.outcome($0, receivedAt: receivedAt)) }
    }

    /// A request refused before its body is complete (its header list too large, its body
    /// longer than any push type allows): journaled, and the outcome to answer with.
    func refuseEarly(_ call: Call, _ reason: Reason, detail: String) -> ProviderOutcome {
        self.refuse(call, Rejection(reason: reason, apnsID: call.answerID(), detail: detail))
    }

    /// Journals a refusal and gives the outcome a provider sees: a channel request's as the
    /// channel APIs answer (named by `apns-request-id`), any other as a push's. Every 410
    /// (Unregistered, ExpiredToken) says since when the token is no longer valid: client
    /// libraries read the field unconditionally.
    private func refuse(_ call: Call, _ rejection: Rejection) -> ProviderOutcome {
        if call.isChannelRequest { return .refused(.channel(self.channelRefusal(call, rejection))) }
        self.journalRefusal(call, rejection, fault: nil)
        return .refused(.push(.init(rejection, timestamp: rejection.reason.status == 410 ? call.receivedAt : nil)))
    }

    /// Journals a push's refusal, with its detail, port and the fault rule behind it.
    func journalRefusal(_ call: Call, _ rejection: Rejection, fault: FaultMark?) {
        var rejected = RejectedPush(
            call.request, id: call.ids.makeID(), apnsID: rejection.apnsID, reason: rejection.reason.wire,
            httpStatus: rejection.reason.status, receivedAt: call.receivedAt
        )
        let detail = rejection.detail ?? rejection.reason.explanation
        rejected.detail = detail.isEmpty ? nil : detail
        rejected.port = call.ids.port
        rejected.environment = call.environment
        self.inspection.rejected(rejected, fault: fault)
    }

    /// Journals a request read after its connection's GOAWAY named a lower last-stream-id: never
    /// processed (not stored, not answered), so the client may send it again (RFC 9113, 6.8).
    func notProcessed(_ request: PushRequest, ids: ProviderConnectionState, stream: Int32, lastStream: Int32) {
        var rejected = RejectedPush(
            request, id: ids.makeID(), apnsID: request.apnsID, reason: nil, httpStatus: nil, receivedAt: self.clock())
        rejected.markNotProcessed(stream: stream, lastStream: lastStream)
        rejected.port = ids.port
        rejected.environment = request.hostEnvironment ?? self.environment
        self.inspection.rejected(rejected, fault: nil)
    }
}
