import APNsAuth
import APNsCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the streams of one provider connection share; confined to its event loop.
final class ProviderConnectionState {
    private var ids: APNsIDGenerator
    /// The connection's authentication state in strict mode; `nil` when any provider is accepted.
    private var auth: ProviderAuthStateMachine?
    /// Lifts the one-stream limit of a connection that has not authenticated yet.
    var unlockStreams: () -> Void = {}

    init(auth: ProviderAuthStateMachine?, shard: Shard? = nil) {
        self.auth = auth
        self.ids = APNsIDGenerator(shard: shard)
    }

    /// Whether the connection starts with one stream (token-based, not yet authenticated).
    var streamsLimited: Bool { self.auth?.streamsLimited == true }

    /// A new id the emulator makes up for an answer: a refusal's `apns-id`, a channel request's
    /// `apns-request-id`, a journal record's id. Time-ordered (version 7) from the wall clock, as
    /// an accepted push's ids are (issue 41: broadcast answers carried version 4).
    func makeID() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return self.ids.timeOrderedUUID(nowMillis: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
    }

    /// A new time-ordered id for an accepted notification (its unique id sorts by arrival in the store).
    func makeID(nowMillis: Int64) -> String { self.ids.timeOrderedUUID(nowMillis: nowMillis) }

    /// Runs the connection's authentication for one request, in place; `nil` when any provider
    /// is accepted. The first request that authenticates lifts the one-stream limit.
    func authenticate(
        _ authorization: String?, nowMillis: Int64, verifier: ProviderTokenVerifier
    ) -> ProviderAuthStateMachine.Decision? {
        let decision = self.auth?.authenticate(authorization: authorization, nowSeconds: nowMillis / 1000, verifier: verifier)
        if case .allow(_, unlocksStreams: true)? = decision { self.unlockStreams() }
        return decision
    }
}
