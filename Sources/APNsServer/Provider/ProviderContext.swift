import APNsAuth
import APNsCore
import APNsInspection
import Logging
import NIOCore

/// What every provider stream shares: the relay, the rules and the logger.
struct ProviderContext: Sendable {
    let relay: Relay
    let auth: AuthMode
    let authRules: ProviderAuthStateMachine.Rules
    let verifier: ProviderTokenVerifier
    let inspection: Inspection
    let environment: APNsEnvironment
    let shutdownGrace: TimeAmount
    /// The emulator's clock (receipt times, expiry), in milliseconds since the UNIX epoch.
    let clock: @Sendable () -> Int64
    /// Real time, for provider-token ages: providers sign with real clocks.
    let realClock: @Sendable () -> Int64
    let logger: Logger
    /// A channels listener: only the channel management routes are served.
    var channelsOnly = false
}
