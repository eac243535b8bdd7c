/// What a provider connection reports to the ``ProviderLedger``, in batches, off the hot path.
public enum ProviderEvent: Sendable {
    /// A connection opened (real time, ms), from `peer`.
    case opened(connection: UInt64, at: Int64, peer: String)
    /// It closed.
    case closed(connection: UInt64, at: Int64)
    /// Requests on it are from `provider` from now on; `token`: the provider token they carry
    /// (the JWT), with its `iat` in seconds.
    case identified(connection: UInt64, provider: ProviderIdentity, token: String?, issuedAt: Int64?, at: Int64)
    /// A request was answered (or left unanswered), recorded for the checks that recognise a
    /// request sent again.
    case request(ProviderRequestRecord)
    /// Requests answered 200 with nothing to recognise later, counted (``ProviderTally``).
    case tally(connection: UInt64, ProviderTally)
    /// The emulator sent GOAWAY naming `lastStream` the last stream it processed.
    case goAway(connection: UInt64, lastStream: Int32, at: Int64)
}
