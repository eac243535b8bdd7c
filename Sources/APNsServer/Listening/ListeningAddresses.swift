import NIOCore
import Synchronization

/// Where the emulator's listeners are bound, once they all are.
public struct ListeningAddresses: Sendable {
    /// The emulator's listeners.
    public enum Front: CaseIterable, Sendable {
        case http2, admin, device, gateway, feedback, channels
        /// Cleartext HTTP/2, only with `--h2c-port`.
        case h2c
        /// The Web Push service (Safari and Home Screen web apps).
        case webPush
        /// The HTTP/2 provider API's production endpoint (`api.push.apple.com`).
        case http2Production

        /// The listeners every emulator opens.
        static let always: Set<Front> = [.http2, .admin, .device, .gateway, .feedback, .channels, .webPush]
    }

    let bound: [Front: SocketAddress]

    /// The port `front` listens on (the addresses are made once every listener is bound); 0 for
    /// one this emulator does not open.
    public func port(_ front: Front) -> Int { self.bound[front]?.port ?? 0 }

    /// Whether this emulator opened `front` (`h2c` only with `--h2c-port`).
    public func isOpen(_ front: Front) -> Bool { self.bound[front] != nil }
}
