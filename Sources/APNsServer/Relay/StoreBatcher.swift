import APNsCore
import APNsStore
import NIOCore

/// Collects the store operations one event loop produces during a tick and submits them to the
/// writer as one submission, so that a batch costs one hop to the writer and one hop back,
/// not one per notification.
final class StoreBatcher: Sendable {
    typealias Completion = (Result<StoreOutcome, any Error>) -> Void

    private struct Pending {
        var operations: [StoreOperation] = []
        var completions: [Completion] = []
        var flushScheduled = false
    }

    let eventLoop: any EventLoop
    private let store: NotificationStore
    private let pending: NIOLoopBoundBox<Pending>

    init(eventLoop: any EventLoop, store: NotificationStore) {
        self.eventLoop = eventLoop
        self.store = store
        self.pending = .makeBoxSendingValue(Pending(), eventLoop: eventLoop)
    }

    /// Adds an operation to this tick's batch; must be called on `eventLoop`.
    func enqueue(_ operation: StoreOperation) -> EventLoopFuture<StoreOutcome> {
        let promise = self.eventLoop.makePromise(of: StoreOutcome.self)
        self.enqueue(operation) { promise.completeWith($0) }
        return promise.futureResult
    }

    /// Adds an operation to this tick's batch, `completion` called on `eventLoop` once it is
    /// committed (no future or promise on the way: this runs for every notification); must be
    /// called on `eventLoop`.
    func enqueue(_ operation: StoreOperation, completion: @escaping Completion) {
        self.pending.value.operations.append(operation)
        self.pending.value.completions.append(completion)
        if !self.pending.value.flushScheduled {
            self.pending.value.flushScheduled = true
            // Runs after the loop has handled this round of reads: everything read in it shares one commit.
            self.eventLoop.assumeIsolated().execute { self.flush() }
        }
    }

    private func flush() {
        let operations = self.pending.value.operations
        let completions = NIOLoopBound(self.pending.value.completions, eventLoop: self.eventLoop)
        self.pending.value = Pending()
        let eventLoop = self.eventLoop
        // In relaxed mode, committed right here when the writer is idle: this holds no lock and
        // the completion only hands the outcomes to the event loop.
        self.store.submit(operations, commitHereIfIdle: true) { result in
            // Committed here (inline): answer at once rather than a loop turn later.
            guard eventLoop.inEventLoop else { return eventLoop.execute { Self.complete(completions.value, with: result) } }
            Self.complete(completions.value, with: result)
        }
    }

    private static func complete(_ completions: [Completion], with result: Result<[StoreOutcome], StoreError>) {
        switch result {
        case .success(let outcomes):
            for (completion, outcome) in zip(completions, outcomes) {
                // An operation the store refused fails alone; its neighbours in the batch succeed.
                if case .refused(let why) = outcome {
                    completion(.failure(StoreError.refused(why)))
                } else {
                    completion(.success(outcome))
                }
            }
        case .failure(let error):
            for completion in completions { completion(.failure(error)) }
        }
    }
}
