import APNsAuth
import APNsCore
import APNsInspection
import Logging
import NIOCore

/// What every provider request shares, whichever door it came through (a provider connection's
/// stream, the admin API's push): the intake and the rules a provider authenticates by.
struct ProviderContext: Sendable {
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
    /// Where requests belong, for what a refusal at the wrong door says.
    let doors: FrontDoors
    /// Where every request goes once its door has read it and decided who sent it.
    private(set) var intake: PushIntake

    init(
        auth: AuthMode, authRules: ProviderAuthStateMachine.Rules, verifier: ProviderTokenVerifier,
        inspection: Inspection,
        environment: APNsEnvironment, shutdownGrace: TimeAmount, clock: @escaping @Sendable () -> Int64,
        realClock: @escaping @Sendable () -> Int64,
        doors: FrontDoors, logger: Logger, intake: PushIntake
    ) {
        self.doors = doors
        self.auth = auth
        self.authRules = authRules
        self.verifier = verifier
        self.inspection = inspection
        self.environment = environment
        self.shutdownGrace = shutdownGrace
        self.clock = clock
        self.realClock = realClock
        self.logger = logger
        self.intake = intake
    }

    /// A channels listener: only the channel management routes are served.
    var channelsOnly: Bool {
        get { self.intake.channelsOnly }
        set { self.intake.channelsOnly = newValue }
    }

    /// A new connection's authentication state: a state machine in strict mode (with the
    /// connection's client certificate, if it presented one), none when any provider is accepted.
    func connectionState(certificate: ProviderCertificate?, port: Int? = nil) -> ProviderConnectionState {
        let auth = self.auth == .strict ? ProviderAuthStateMachine(rules: self.authRules, certificate: certificate) : nil
        return ProviderConnectionState(auth: auth, shard: self.intake.ids.shard, port: port, clock: self.clock)
    }
}
