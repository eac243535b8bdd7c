import APNsCore
import APNsInspection

/// A channel request's side of the fault step (interface `broadcast`, its bundle id as the
/// topic, its channel): the rest is the channel APIs' (``ChannelRequests``), not a push's.
struct ChannelDoor: FaultDoor {
    var call: PushIntake.Call

    func faultRequest() -> FaultRequest {
        let request = self.call.request
        let bundle = self.call.channelRoute.flatMap { try? $0.get() }?.bundleID
        var fault = FaultRequest(interface: .broadcast, token: { "" }, topic: bundle, pushType: request.pushType)
        fault.channelID = request.channelID
        return fault
    }

    /// The rule's refusal; its mark goes on the call, so the refusal's journal entry carries it.
    mutating func injected(reason: String?, status: Int?, statusByte: UInt8?, by fault: FaultMark) -> Rejection {
        self.call.fault = fault
        let reason = Reason.injected(wire: reason ?? "", status: status)
        return Rejection(reason: reason, apnsID: self.call.answerID(), detail: "injected by fault rule \(fault.ruleID)")
    }

    /// Journaled when it is answered (``PushIntake/channelRefusal(_:_:)``), as the channel APIs'.
    func journal(_ refusal: Rejection, fault: FaultMark?, in intake: PushIntake) {}

    mutating func journalUnanswered(goAway reason: String?, fault: FaultMark, in intake: PushIntake) {
        self.call.fault = fault
        var record = BroadcastRecord(
            id: self.call.ids.makeID(), request: self.call.request, operation: nil, bundleID: nil,
            receivedAt: self.call.receivedAt, httpStatus: 0)
        record.reason = reason
        intake.inspection.broadcast(record, fault: fault)
    }
}
