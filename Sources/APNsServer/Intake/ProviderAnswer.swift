/// What a provider is answered with for a request the intake took, whichever it was: a push's
/// (the provider API's, and the admin API's push, which speaks for a provider) or a channel
/// request's, which the channel APIs answer in their own form (``ChannelAnswer``). Each door
/// turns it into its wire: HTTP/2 fields, the admin API's JSON.
typealias ProviderOutcome = IntakeResult<ProviderAnswer, ProviderRefusal>

/// A provider's request done as asked.
enum ProviderAnswer {
    /// Stored: 200 with the notification's `apns-id`, its `apns-unique-id` (development only) and
    /// the lint's warnings.
    case push(ProviderPushDoor.Accepted)
    /// A channel management or broadcast request the channel APIs carried out; boxed, so that
    /// every push's outcome is not the size of a channel answer's (400 bytes moved at each step).
    indirect case channel(ChannelAnswer)
}
