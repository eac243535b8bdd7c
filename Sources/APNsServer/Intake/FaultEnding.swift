/// How a fault rule ended a request, when it did.
enum FaultEnding<Refusal> {
    /// `respond`: refused as the rule says.
    case refused(Refusal)
    /// The connection is reset, unanswered.
    case reset
    /// The connection is sent away with GOAWAY and this reason, unanswered.
    case goAway(String)
}
