import APNsAuth
import APNsCore
import APNsInspection
import Logging

/// What every gateway connection shares: the intake, and the rules its connections follow.
struct GatewayContext: Sendable {
    let inspection: Inspection
    let auth: AuthMode
    /// The gateway's environment: `--environment`'s, or the one a connection's SNI names.
    var environment: APNsEnvironment
    let clock: @Sendable () -> Int64
    let logger: Logger
    let intake: PushIntake
    /// Where requests belong, for what a refusal says.
    let doors: FrontDoors

    init(
        inspection: Inspection, auth: AuthMode, environment: APNsEnvironment,
        clock: @escaping @Sendable () -> Int64, doors: FrontDoors, logger: Logger, intake: PushIntake
    ) {
        self.doors = doors
        self.inspection = inspection
        self.auth = auth
        self.environment = environment
        self.clock = clock
        self.logger = logger
        self.intake = intake
    }
}
