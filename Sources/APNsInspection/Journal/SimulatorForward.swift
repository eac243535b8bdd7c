import APNsCore
import APNsDevice

/// The outcome of `xcrun simctl push` for one notification (`serve --forward-to-simulator`).
public final class SimulatorForward: Sendable {
    /// The simulator: `booted` or a UDID.
    public let device: String
    /// `forwarded` (simctl exited 0) or `failed`.
    public let status: String
    public let exitCode: Int32?
    /// simctl's own words (its output), or why it could not run.
    public let message: String

    public init(device: String, status: String, exitCode: Int32?, message: String) {
        self.device = device
        self.status = status
        self.exitCode = exitCode
        self.message = message
    }
}
