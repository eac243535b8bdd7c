import NIOCore
import Synchronization

/// Where the emulator's listeners are bound, once they all are.
public struct ListeningAddresses: Sendable {
    public var http2: SocketAddress
    public var admin: SocketAddress
    public var device: SocketAddress
    public var gateway: SocketAddress
    public var feedback: SocketAddress
}

/// Lets callers wait until every listener is bound, or learn that starting failed.
final class ReadinessGate: Sendable {
    private struct State {
        var http2: SocketAddress?
        var admin: SocketAddress?
        var device: SocketAddress?
        var gateway: SocketAddress?
        var feedback: SocketAddress?
        var failure: (any Error)?
        var waiters: [CheckedContinuation<ListeningAddresses, any Error>] = []

        var ready: ListeningAddresses? {
            guard let http2, let admin, let device, let gateway, let feedback else { return nil }
            return ListeningAddresses(http2: http2, admin: admin, device: device, gateway: gateway, feedback: feedback)
        }
    }

    private let state = Mutex(State())

    func bound(http2 address: SocketAddress) { self.update { $0.http2 = address } }

    func bound(admin address: SocketAddress) { self.update { $0.admin = address } }

    func bound(device address: SocketAddress) { self.update { $0.device = address } }

    func bound(gateway address: SocketAddress) { self.update { $0.gateway = address } }

    func bound(feedback address: SocketAddress) { self.update { $0.feedback = address } }

    func failed(_ error: any Error) { self.update { $0.failure = $0.failure ?? error } }

    /// Whether every listener is bound and the emulator has not stopped.
    var isReady: Bool { self.state.withLock { $0.ready != nil && $0.failure == nil } }

    /// Returns once every listener is bound; throws if the emulator stopped before that.
    func wait() async throws -> ListeningAddresses {
        try await withCheckedThrowingContinuation { continuation in
            let resume: Result<ListeningAddresses, any Error>? = self.state.withLock { state in
                if let ready = state.ready { return .success(ready) }
                if let failure = state.failure { return .failure(failure) }
                state.waiters.append(continuation)
                return nil
            }
            if let resume { continuation.resume(with: resume) }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let (waiters, result) = self.state.withLock { state -> ([CheckedContinuation<ListeningAddresses, any Error>], Result<ListeningAddresses, any Error>?) in
            change(&state)
            let result: Result<ListeningAddresses, any Error>? =
                state.ready.map { .success($0) } ?? state.failure.map { .failure($0) }
            guard result != nil else { return ([], nil) }
            defer { state.waiters = [] }
            return (state.waiters, result)
        }
        if let result { for waiter in waiters { waiter.resume(with: result) } }
    }
}
