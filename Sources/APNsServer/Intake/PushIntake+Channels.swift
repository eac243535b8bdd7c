import APNsAuth
import APNsCore
import APNsInspection
import NIOCore

/// The channel management and broadcast routes in the intake: ``ChannelRequests`` decides
/// (and the broadcast publisher fans out), the door writes the answer.
extension PushIntake {
    /// A channel request through the fault rules (the intake's, as a push's), then the channel APIs.
    func takeChannelRequest(
        _ call: Call, credential: ProviderCredential?, on eventLoop: any EventLoop, answer: @escaping (ProviderOutcome) -> Void
    ) {
        var door = ChannelDoor(call: call)
        guard let fault = self.faultRule(for: door.faultRequest()) else {
            return self.manageChannels(call, credential: credential, on: eventLoop, answer: answer)
        }
        self.applyFault(fault, to: &door, on: eventLoop) { door, mark in
            var call = door.call
            call.fault = mark
            self.manageChannels(call, credential: credential, on: eventLoop, answer: answer)
        } ended: { door, ending in
            answer(ending.ending { .channel(self.channelRefusal(door.call, $0)) })
        }
    }

    /// The channel APIs' answer to a request (the broadcast publisher fans a broadcast out).
    private func manageChannels(
        _ call: Call, credential: ProviderCredential?, on eventLoop: any EventLoop, answer: @escaping (ProviderOutcome) -> Void
    ) {
        let requests = ChannelRequests(
            channels: self.channels, activities: self.activities, cluster: self.cluster, inspection: self.inspection,
            environment: call.environment)
        let (request, ids) = (call.request, call.ids)
        requests.answer(
            request, route: call.channelRoute ?? .failure(.badPath), credential: credential, receivedAt: self.clock(),
            port: ids.port, makeID: { ids.makeID() }, on: eventLoop
        )
        .assumeIsolated().whenComplete { result in
            switch result {
            case .success(let channelAnswer):
                answer(channelAnswer.outcome)
            case .failure(let error):
                let rejection = Rejection(reason: Relay.reason(for: error), apnsID: request.requestID ?? ids.makeID())
                answer(.refused(.channel(self.channelRefusal(call, rejection))))
            }
        }
    }

    /// A refusal before the channel APIs saw the request (authentication, a fault rule, the
    /// size limit), journaled as theirs and answered as they answer.
    func channelRefusal(_ call: Call, _ rejection: Rejection) -> ChannelAnswer {
        let request = call.request
        var record = BroadcastRecord(
            id: call.ids.makeID(), request: request, operation: nil, bundleID: nil, receivedAt: self.clock(),
            httpStatus: rejection.reason.status)
        if case .success(let route)? = call.channelRoute {
            record.bundleID = route.bundleID
            record.operation = ChannelRequests.operation(route.kind, method: request.method ?? "")
        }
        record.reason = rejection.reason.wire
        record.detail = rejection.detail ?? rejection.reason.explanation
        record.port = call.ids.port
        let requestID = request.requestID.flatMap { APNsID.isCanonical($0) ? $0 : nil } ?? call.ids.makeID()
        record.requestID = requestID
        self.inspection.broadcast(record, fault: call.fault)
        return ChannelRequests.refusal(
            Rejection(reason: rejection.reason, apnsID: requestID, detail: rejection.detail), record: record)
    }
}
