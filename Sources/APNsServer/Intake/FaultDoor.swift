import APNsInspection

/// What a door gives the fault step (``PushIntake/applyFault(_:to:on:proceed:ended:)``), which
/// every request the provider API, the binary interface, Web Push and the channel APIs take
/// passes through first: what the rules look at, what a `respond` makes, how it is journaled.
protocol FaultDoor {
    /// What a refusal is here: an APNs reason, a status byte, a Web Push status.
    associatedtype Refusal: Error

    /// What the fault rules look at (described only while there are rules).
    func faultRequest() -> FaultRequest
    /// What a matching rule's `respond` makes here.
    mutating func injected(reason: String?, status: Int?, statusByte: UInt8?, by fault: FaultMark) -> Refusal
    /// Journals a refusal (or keeps it: the gateway's is journaled when its error response names
    /// it, a channel request's when it is answered).
    func journal(_ refusal: Refusal, fault: FaultMark?, in intake: PushIntake)
    /// Journals a request a fault rule's reset (`goAway` nil) or GOAWAY left unanswered.
    mutating func journalUnanswered(goAway reason: String?, fault: FaultMark, in intake: PushIntake)
}
