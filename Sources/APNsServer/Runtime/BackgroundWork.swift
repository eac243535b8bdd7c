import ServiceLifecycle

/// Something long-lived the emulator runs beside its listeners, as a service of its ServiceGroup:
/// `start` begins it when the group runs and returns how to end it, which runs at the group's
/// graceful shutdown (or its cancellation). The group shuts its services down in the reverse of
/// their order, so work listed before the listeners ends after them: the store, first in the
/// list, closes once every listener has answered what it accepted.
struct BackgroundWork: Service, CustomStringConvertible {
    let description: String
    private let start: @Sendable () -> @Sendable () -> Void

    init(_ name: String, start: @escaping @Sendable () -> @Sendable () -> Void) {
        self.description = name
        self.start = start
    }

    func run() async throws {
        let end = self.start()
        // Returns at the graceful shutdown; throws when the group is cancelled. Either way, end it.
        try? await gracefulShutdown()
        end()
    }
}
