import NIOCore
import Synchronization

/// Lets callers wait until every listener is bound, or learn that starting failed.
final class ReadinessGate: Sendable {
    private typealias Waiter = CheckedContinuation<ListeningAddresses, any Error>

    private struct State {
        var expected: Set<ListeningAddresses.Front>
        var bound: [ListeningAddresses.Front: SocketAddress] = [:]
        var failure: (any Error)?
        var waiters: [Waiter] = []

        var ready: ListeningAddresses? {
            self.expected.isSubset(of: self.bound.keys) ? ListeningAddresses(bound: self.bound) : nil
        }
    }

    private let state: Mutex<State>

    /// Ready once the listeners every emulator opens and `optional` ones are bound.
    init(optional: Set<ListeningAddresses.Front> = []) {
        self.state = Mutex(State(expected: ListeningAddresses.Front.always.union(optional)))
    }

    /// `front` listens at `address`.
    func bound(_ front: ListeningAddresses.Front, at address: SocketAddress) { self.update { $0.bound[front] = address } }

    /// Where `front` is bound, once it is.
    func address(_ front: ListeningAddresses.Front) -> SocketAddress? { self.state.withLock { $0.bound[front] } }

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
        let (waiters, result) = self.state.withLock { state -> ([Waiter], Result<ListeningAddresses, any Error>?) in
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
