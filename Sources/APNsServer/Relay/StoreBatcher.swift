import APNsCore
import APNsStore
import NIOCore

/// Collects the store operations one event loop produces during a tick and submits them to the
/// writer as one submission, so that a batch costs one hop to the writer and one hop back,
/// not one per notification.
final class StoreBatcher: Sendable {
    private struct Pending {
        var operations: [StoreOperation] = []
        var promises: [EventLoopPromise<StoreOutcome>] = []
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
        self.pending.value.operations.append(operation)
        self.pending.value.promises.append(promise)
        if !self.pending.value.flushScheduled {
            self.pending.value.flushScheduled = true
            // Runs after the loop has handled this round of reads: everything read in it shares one commit.
            self.eventLoop.assumeIsolated().execute { self.flush() }
        }
        return promise.futureResult
    }

    private func flush() {
        let operations = self.pending.value.operations
        let promises = self.pending.value.promises
        self.pending.value = Pending()
        let eventLoop = self.eventLoop
        // In relaxed mode, committed right here when the writer is idle: this holds no lock and
        // the completion only hands the outcomes to the event loop.
        self.store.submit(operations, commitHereIfIdle: true) { result in
            // Committed here (inline): answer at once rather than a loop turn later.
            guard eventLoop.inEventLoop else { return eventLoop.execute { Self.complete(promises, with: result) } }
            Self.complete(promises, with: result)
        }
    }

    private static func complete(_ promises: [EventLoopPromise<StoreOutcome>], with result: Result<[StoreOutcome], StoreError>) {
        switch result {
        case .success(let outcomes):
            for (promise, outcome) in zip(promises, outcomes) {
                // An operation the store refused fails alone; its neighbours in the batch succeed.
                if case .refused(let why) = outcome {
                    promise.fail(StoreError.refused(why))
                } else {
                    promise.succeed(outcome)
                }
            }
        case .failure(let error):
            for promise in promises { promise.fail(error) }
        }
    }
}
