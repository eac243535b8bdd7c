import APNsAuth
import APNsCore
import APNsWire
import NIOCore
import NIOSSL

extension ProviderContext {
    /// The provider a binary connection (gateway or feedback) speaks for in strict mode, from its
    /// certificate; one without a usable certificate is refused, logged and journaled with where
    /// a token-based client belongs. On the channel's event loop.
    /// `environment`: the connection's (its SNI's, or the port's when nil).
    func binaryProvider(
        _ handshake: TLSHandshake, on channel: any Channel, listener: String, environment: APNsEnvironment? = nil
    ) throws -> ProviderCertificate? {
        do {
            return try ProviderCertificate.binaryProvider(
                handshake.certificate, auth: self.auth, environment: environment ?? self.environment, listener: listener)
        } catch {
            let refusal = ConnectionRefusal(inspection: self.inspection, clock: self.clock, logger: self.logger)
            refusal.record(channel, source: .binary, detail: self.doors.certificateRequired(error.message))
            throw error
        }
    }
}
