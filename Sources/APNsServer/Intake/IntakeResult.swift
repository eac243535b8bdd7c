/// What the one intake made of a door's request: the door turns it into its wire.
enum IntakeResult<Door: IntakeDoor> {
    /// Stored and durable.
    case accepted(Door.Accepted)
    /// Refused: by a fault rule, the door's checks, or the store.
    case refused(Door.Refusal)
    /// A fault rule's: the connection ends at once, nothing answered.
    case reset
    /// A fault rule's: GOAWAY from this request on, with this reason.
    case goAway(reason: String)
}
