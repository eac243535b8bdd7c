/// What the intake made of a request, whichever step ended it (a fault rule, the door's checks,
/// the store, the channel APIs): the one outcome every door and every step gives, each door
/// turning it into its wire. `Accepted` and `Refusal` are the door's (an accepted push's answer,
/// a refusal as the door says it); the fault step, which never accepts, gives
/// `IntakeResult<Never, Refusal>`.
enum IntakeResult<Accepted, Refusal> {
    /// Stored and durable (or, at the channel door, done as asked).
    case accepted(Accepted)
    /// Refused: by a fault rule, the door's checks, the store or the channel APIs.
    case refused(Refusal)
    /// A fault rule's: the connection ends at once, nothing answered.
    case reset
    /// A fault rule's: GOAWAY from this request on, with this reason.
    case goAway(reason: String)

    /// The same ending in another door's terms: a reset and a GOAWAY are the same at every door.
    func map<A, R>(accepted: (Accepted) -> A, refused: (Refusal) -> R) -> IntakeResult<A, R> {
        switch self {
        case .accepted(let value): .accepted(accepted(value))
        case .refused(let refusal): .refused(refused(refusal))
        case .reset: .reset
        case .goAway(let reason): .goAway(reason: reason)
        }
    }
}

extension IntakeResult where Accepted == Never {
    /// The fault step's ending as a door's outcome, its refusal as the door says it (`refused`).
    func ending<A, R>(refused: (Refusal) -> R) -> IntakeResult<A, R> {
        switch self {
        case .refused(let refusal): .refused(refused(refusal))
        case .reset: .reset
        case .goAway(let reason): .goAway(reason: reason)
        }
    }
}
