import Synchronization

/// What the emulator does once its listeners are done and before its store closes (an export at
/// exit): given to `run`, done by the store's service, which the group builds earlier.
final class BeforeClosing: Sendable {
    private let action = Mutex<@Sendable () -> Void>({})

    func set(_ action: @escaping @Sendable () -> Void) { self.action.withLock { $0 = action } }

    func callAsFunction() { self.action.withLock { $0 }() }
}
