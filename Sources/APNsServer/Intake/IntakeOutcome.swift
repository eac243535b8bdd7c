import APNsCore

/// What a provider is answered for one request, whichever door it came through; each door
/// turns it into its own wire (HTTP/2 fields, the admin API's JSON).
enum IntakeOutcome {
    /// Stored: 200 with the notification's `apns-id`, its `apns-unique-id` (development only) and
    /// the lint's warnings.
    case accepted(apnsID: String, uniqueID: String?, warnings: [PushWarning])
    /// Refused with an APNs reason; a 410 says since when the token is no longer valid.
    case refused(Rejection, timestamp: Int64?)
    /// A channel management or broadcast request's answer (success or refusal).
    case channel(ChannelAnswer)
    /// A fault rule's: the connection ends at once.
    case reset
    /// A fault rule's: GOAWAY from this request's stream on, with this reason.
    case goAway(reason: String)
}
