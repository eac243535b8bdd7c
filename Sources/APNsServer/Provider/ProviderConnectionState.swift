import APNsAuth
import APNsCore

/// What the streams of one provider connection share; confined to its event loop.
final class ProviderConnectionState {
    private var ids: APNsIDGenerator
    /// The connection's authentication state in strict mode; `nil` when any provider is accepted.
    private var auth: ProviderAuthStateMachine?
    /// Lifts the one-stream limit of a connection that has not authenticated yet.
    var unlockStreams: () -> Void = {}
    /// What the report card hears of the connection; nil for the admin API's push.
    var observer: ProviderObserver?

    /// The emulator's clock, for the ids it makes.
    private let clock: @Sendable () -> Int64
    /// The port the connection reached, for what the journal says of its refusals; nil for the admin API's push.
    let port: Int?

    init(auth: ProviderAuthStateMachine?, shard: Shard? = nil, port: Int? = nil, clock: @escaping @Sendable () -> Int64) {
        self.auth = auth
        self.clock = clock
        self.port = port
        self.ids = APNsIDGenerator(shard: shard)
    }

    /// Whether the connection starts with one stream (token-based, not yet authenticated).
    var streamsLimited: Bool { self.auth?.streamsLimited == true }

    /// A new id the emulator makes up for an answer: a refusal's `apns-id`, a channel request's
    /// `apns-request-id`, a journal record's id. Time-ordered (version 7) on the emulator's clock,
    /// as an accepted push's ids are (issue 41: broadcast answers carried version 4).
    func makeID() -> String { self.ids.timeOrderedUUID(nowMillis: self.clock()) }

    /// A new time-ordered id for an accepted notification (its unique id sorts by arrival in the store).
    func makeID(nowMillis: Int64) -> String { self.ids.timeOrderedUUID(nowMillis: nowMillis) }

    /// Runs the connection's authentication for one request, in place; `nil` when any provider
    /// is accepted. The first request that authenticates lifts the one-stream limit.
    func authenticate(
        _ authorization: String?, nowMillis: Int64, environment: APNsEnvironment? = nil, verifier: ProviderTokenVerifier
    ) -> ProviderAuthStateMachine.Decision? {
        let decision = self.auth?.authenticate(
            authorization: authorization, nowSeconds: nowMillis / 1000, environment: environment, verifier: verifier)
        if case .allow(_, unlocksStreams: true)? = decision { self.unlockStreams() }
        return decision
    }
}
