import APNsCore
import APNsDevice

/// The service extensions running now, by notification: what each was handed, when its time
/// ends on the emulator's clock, how to stop it, and who waits for the presentation. A lock of
/// its own, ranked with the indexes: taken under the apps' lock, nothing inside it.
///
/// Thread-safe.
final class ExtensionRuns: Sendable {
    struct Run: Sendable {
        var install: AppInstall
        var notification: APNsCore.Notification
        var serviceExtension: ServiceExtension
        var content: ExtensionContent
        /// When it started and when its time ends, on the emulator's clock (milliseconds).
        var startedAt: Int64
        var deadline: Int64
        var stop: ServiceExtensionRunner.Stop?
        var waiters: [@Sendable (Presentation?) -> Void]
    }

    private let runs = RankedMutex(.index, [String: Run]())

    /// Begins a run for `uniqueID` (none runs: ``join(_:_:)`` said so under the apps' lock).
    func begin(_ uniqueID: String, _ run: Run) {
        self.runs.withLock { $0[uniqueID] = run }
    }

    /// `waiter` waits for the run of `uniqueID`, if one is running; whether one is.
    func join(_ uniqueID: String, _ waiter: (@Sendable (Presentation?) -> Void)?) -> Bool {
        self.runs.withLock { runs in
            guard runs[uniqueID] != nil else { return false }
            if let waiter { runs[uniqueID]?.waiters.append(waiter) }
            return true
        }
    }

    /// How to stop the run of `uniqueID`, once it has started (nothing when it has ended).
    func started(_ uniqueID: String, stop: ServiceExtensionRunner.Stop) {
        self.runs.withLock { $0[uniqueID]?.stop = stop }
    }

    /// Ends the run of `uniqueID`: it, or nil when it had ended already (its time ran out first),
    /// or when `deviceID` (a device replying as the extension) is not the device it asked.
    func end(_ uniqueID: String, from deviceID: String? = nil) -> Run? {
        self.runs.withLock { runs in
            if let deviceID {
                guard let run = runs[uniqueID], case .device = run.serviceExtension.kind, run.install.deviceID == deviceID else {
                    return nil
                }
            }
            return runs.removeValue(forKey: uniqueID)
        }
    }

    /// The runs whose time ended by `now`.
    func due(at now: Int64) -> [String] {
        self.runs.withLock { runs in runs.filter { $0.value.deadline <= now }.map(\.key) }
    }

    /// Stops and forgets every run (a reset).
    func removeAll() {
        let ended = self.runs.withLock { runs in
            defer { runs = [:] }
            return Array(runs.values)
        }
        for run in ended { run.stop?.stop() }
    }
}
