/// A provider's request refused: a push with an APNs reason (a 410 says since when the token is
/// no longer valid), or a channel request as the channel APIs refuse (and journal) it.
enum ProviderRefusal {
    case push(ProviderPushDoor.Refusal)
    /// Boxed, as ``ProviderAnswer/channel(_:)`` is.
    indirect case channel(ChannelAnswer)
}
