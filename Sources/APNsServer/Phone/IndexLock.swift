import APNsDevice

/// A concern's index behind a lock of its own, ranked after the apps' lock: the accept path's
/// lookups in it never wait for an app being changed.
///
/// Thread-safe.
final class IndexLock<Index: AppIndex>: Sendable {
    private let index: RankedMutex<Index>
    private let empty: Index

    init(_ empty: Index) {
        self.empty = empty
        self.index = RankedMutex(.index, empty)
    }

    func withLock<Result: Sendable, E: Error>(_ body: (inout Index) throws(E) -> Result) throws(E) -> Result {
        try self.index.withLock { (index: inout sending Index) throws(E) -> sending Result in try body(&index) }
    }

    /// Takes in a changed app (``PhoneApps`` calls it under the apps' lock).
    func track(_ app: AppModel, _ install: AppInstall) {
        guard Index.concerns(app, install) else { return }
        self.index.withLock { $0.track(app, install) }
    }

    /// Forgets everything (a reset that forgets the devices).
    func reset() {
        self.index.withLock { [empty] in $0 = empty }
    }
}
