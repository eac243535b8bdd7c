import APNsStore
import ServiceLifecycle

/// Keeps the store open while the emulator runs; closes it last, after the listeners have
/// finished the work they accepted (ServiceGroup shuts services down in reverse order).
struct StoreService: Service {
    let store: NotificationStore

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch is CancellationError {
            // Cancelled rather than asked to stop: close all the same, so that commits finish.
        }
        self.store.close()
    }
}
