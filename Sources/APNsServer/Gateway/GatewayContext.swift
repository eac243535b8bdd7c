import APNsAuth
import APNsCore
import APNsInspection
import Logging

/// What every gateway connection shares.
struct GatewayContext: Sendable {
    let relay: Relay
    let validator: BinaryPushValidator
    let inspection: Inspection
    let auth: AuthMode
    let environment: APNsEnvironment
    /// Whether tokens must be looked up before submitting (the registered token policy).
    let checksTokens: Bool
    let clock: @Sendable () -> Int64
    let logger: Logger
}
