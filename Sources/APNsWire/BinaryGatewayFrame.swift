import APNsCore
import NIOCore

/// What the gateway decoder read: a notification, or the point where the stream stopped making sense.
public enum BinaryGatewayFrame: Hashable, Sendable {
    case push(BinaryPushRequest)
    /// An unknown command byte or a frame that does not parse (status 128). `identifier` is the
    /// notification identifier if the frame got far enough to carry one, else 0.
    case malformed(identifier: UInt32, detail: String)
    /// Another protocol's bytes where a command should start (status 128, as any unknown command).
    case foreign(ForeignProtocol)
}
