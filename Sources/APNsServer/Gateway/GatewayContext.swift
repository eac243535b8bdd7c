import APNsAuth
import APNsCore
import APNsInspection
import Logging

/// What every gateway connection shares.
struct GatewayContext: Sendable {
    let relay: Relay
    let inspection: Inspection
    let auth: AuthMode
    let environment: APNsEnvironment
    let clock: @Sendable () -> Int64
    let logger: Logger
}
