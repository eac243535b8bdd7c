import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// The channel management and broadcast APIs as functions of a request: the route, the
/// checks, the channels' change and, for a broadcast, the fan-out to the phone. No sockets here:
/// the provider connection hands requests in and writes the answers.
struct ChannelRequests: Sendable {
    /// The channels it manages and publishes to.
    let channels: BroadcastChannels
    /// The Live Activities a broadcast fans out to.
    let activities: LiveActivities
    /// The other shards, which a change or a broadcast reaches too.
    let cluster: Cluster?
    let inspection: Inspection
    /// The request's environment: its port's, or the Apple host its `:authority` names (a
    /// channel belongs to the one it was created in).
    let environment: APNsEnvironment

    /// Answers `request` at `route` (its path, read once by the intake; its credential already
    /// decided), recording it in the journal and the metrics. On `eventLoop`.
    func answer(
        _ request: PushRequest, route: Result<BroadcastRoute, Reason>, credential: ProviderCredential?, receivedAt: Int64,
        port: Int?, makeID: () -> String, on eventLoop: any EventLoop
    ) -> EventLoopFuture<ChannelAnswer> {
        var record = BroadcastRecord(
            id: makeID(), request: request, operation: nil, bundleID: nil, receivedAt: receivedAt, httpStatus: 0)
        record.port = port
        let answered: EventLoopFuture<ChannelAnswer>
        switch self.prepare(request, route: route, credential: credential, makeID: makeID, record: &record) {
        case .failure(let rejection):
            answered = eventLoop.makeSucceededFuture(Self.refusal(rejection, record: record))
        case .success(let route):
            answered = self.perform(request, route: route, record: record, on: eventLoop)
        }
        let inspection = self.inspection
        return answered.map { answer in
            var record = answer.record
            record.httpStatus = answer.status
            record.reason = answer.reason?.wire
            record.detail = answer.reason.map { answer.detail ?? $0.explanation }
            record.requestID = answer.requestID
            record.channelID = answer.channelID ?? record.channelID
            inspection.broadcast(record)
            inspection.metrics.broadcast.request(operation: record.operation ?? "unknown", status: answer.status)
            var done = answer
            done.record = record
            return done
        }
    }

    /// The checks every request passes first: path, request id, method, and that the provider
    /// may act for the bundle.
    private func prepare(
        _ request: PushRequest, route: Result<BroadcastRoute, Reason>, credential: ProviderCredential?, makeID: () -> String,
        record: inout BroadcastRecord
    ) -> Result<BroadcastRoute, Rejection> {
        let requestID: String
        switch BroadcastValidator.requestID(request.requestID, generate: makeID) {
        case .success(let id): requestID = id
        case .failure(let reason): return .failure(Rejection(reason: reason, apnsID: makeID()))
        }
        record.requestID = requestID
        let parsed: BroadcastRoute
        switch route {
        case .success(let route): parsed = route
        case .failure(let reason): return .failure(Rejection(reason: reason, apnsID: requestID, detail: reason.explanation))
        }
        record.bundleID = parsed.bundleID
        let method = request.method ?? ""
        record.operation = Self.operation(parsed.kind, method: method)
        guard parsed.methods.contains(method) else {
            return .failure(
                Rejection(
                    reason: .methodNotAllowed, apnsID: requestID,
                    detail: "\(request.path ?? "") takes \(parsed.methods.joined(separator: ", "))"))
        }
        if let reason = Self.topicRefusal(parsed.bundleID, credential: credential) {
            return .failure(Rejection(reason: reason, apnsID: requestID, detail: reason.explanation))
        }
        return .success(parsed)
    }

    static func operation(_ kind: BroadcastRoute.Kind, method: String) -> String? {
        switch (kind, method) {
        case (.channels, "POST"): return "create"
        case (.channels, "GET"): return "read"
        case (.channels, "DELETE"): return "delete"
        case (.allChannels, "GET"): return "list"
        case (.publish, "POST"): return "publish"
        default: return nil
        }
    }

    /// `TopicMismatch` when the key or certificate does not cover the bundle.
    static func topicRefusal(_ bundleID: String, credential: ProviderCredential?) -> Reason? {
        switch credential {
        case .certificate(let certificate) where !certificate.topics.contains(bundleID):
            return Reason.topicMismatch.explained(
                "the client certificate covers \(certificate.topics.sorted().joined(separator: ", ")), not \(bundleID)")
        case .token(let verified) where !verified.key.allows(topic: bundleID):
            return Reason.topicMismatch.explained(
                "key \(verified.key.keyID) does not allow \(bundleID) (it allows \(verified.key.topics.joined(separator: ", ")))")
        default:
            return nil
        }
    }

    static func refusal(_ rejection: Rejection, record: BroadcastRecord) -> ChannelAnswer {
        ChannelAnswer(
            status: rejection.reason.status, requestID: rejection.apnsID, reason: rejection.reason, detail: rejection.detail,
            record: record)
    }
}
