import NIOCore
import Synchronization

/// Where the emulator's listeners are bound, once they all are.
public struct ListeningAddresses: Sendable {
    /// The emulator's listeners.
    public enum Front: CaseIterable, Sendable {
        case http2, admin, device, gateway, feedback, channels
    }

    let bound: [Front: SocketAddress]

    /// The port `front` listens on (the addresses are made once every listener is bound).
    public func port(_ front: Front) -> Int { self.bound[front]?.port ?? 0 }
}
