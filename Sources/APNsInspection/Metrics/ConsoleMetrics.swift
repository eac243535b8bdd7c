import APNsCore
import CoreMetrics
import Synchronization

/// The Push Notifications Console's metrics ("Received by APNs", "Stored - Device Offline", ...)
/// as Prometheus counters by push type and priority, e.g. `apns_stored_device_offline_total`.
///
/// Counting is one relaxed atomic add in a fixed slot (it happens for every notification); the
/// Prometheus counters are brought up to date when `/metrics` is read, and only the combinations
/// that happened appear.
public final class ConsoleMetrics: Sendable {
    /// The Console's metrics this emulator counts, in its words.
    public static let names = [
        DeliveryLog.received, DeliveryLog.delivered, DeliveryLog.deliveredFromStorage, DeliveryLog.storedOffline,
        DeliveryLog.storedPower,
        DeliveryLog.discardedUnregistered, DeliveryLog.discardedUnregisteredFromStorage, DeliveryLog.discardedExpired,
        DeliveryLog.discardedDisabled, DeliveryLog.discardedDisabledFromStorage,
    ]
    private static let priorities: [Priority] = [.immediate, .conservePower, .prioritizePower]
    /// ``names``' indices of the two counted for every notification.
    static let receivedIndex = 0
    private static let typeCount = PushType.all.count
    static let storedOfflineIndex = 3

    private final class Slot: Sendable {
        let count = Atomic<Int>(0)
        /// What the Prometheus counter was last brought up to.
        let rendered = Atomic<Int>(0)
    }

    private let slots: [Slot]
    private let counters = Mutex<[Int: CoreMetrics.Counter]>([:])
    private let factory: any MetricsFactory

    init(factory: any MetricsFactory) {
        self.factory = factory
        self.slots = (0..<(Self.names.count * PushType.all.count * Self.priorities.count)).map { _ in Slot() }
    }

    /// The Prometheus name of a Console metric: `Stored - Device Offline` is
    /// `apns_stored_device_offline_total`.
    public static func prometheusName(_ name: String) -> String {
        var words: [String] = []
        var word = ""
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return "apns_" + words.joined(separator: "_") + "_total"
    }

    /// Counts one `name` (one of ``names``; anything else is not a Console metric and not counted).
    public func count(_ name: String, _ notification: Notification) {
        self.count(name, pushType: notification.pushType, priority: notification.priority)
    }

    /// Counts one `name` for a notification of this push type and priority.
    public func count(_ name: String, pushType: PushType, priority: Priority) {
        guard let metric = Self.names.firstIndex(of: name) else { return }
        self.count(metric: metric, pushType: pushType, priority: priority)
    }

    func count(metric: Int, _ notification: Notification) {
        self.count(metric: metric, pushType: notification.pushType, priority: notification.priority)
    }

    func count(metric: Int, pushType: PushType, priority given: Priority) {
        // Alert at priority 10 is nearly every notification: no search for it.
        guard let type = pushType == .alert ? 0 : PushType.all.firstIndex(of: pushType) else { return }
        let priority: Int
        switch given.rawValue {
        case 10: priority = 0
        case 5: priority = 1
        default: priority = 2
        }
        let index = (metric * Self.typeCount + type) * 3 + priority
        self.slots[index].count.wrappingAdd(1, ordering: .relaxed)
    }

    /// Brings the Prometheus counters up to what was counted; before rendering.
    func update() {
        self.counters.withLock { counters in
            for (index, slot) in self.slots.enumerated() {
                let count = slot.count.load(ordering: .relaxed)
                let rendered = slot.rendered.load(ordering: .relaxed)
                guard count != rendered else { continue }
                let counter = counters[index] ?? self.makeCounter(index)
                counters[index] = counter
                if count > rendered { counter.increment(by: count - rendered) }
                slot.rendered.store(count, ordering: .relaxed)
            }
        }
    }

    private func makeCounter(_ index: Int) -> CoreMetrics.Counter {
        let priority = index % Self.priorities.count
        let type = (index / Self.priorities.count) % PushType.all.count
        let metric = index / (Self.priorities.count * PushType.all.count)
        return CoreMetrics.Counter(
            label: Self.prometheusName(Self.names[metric]),
            dimensions: [("push_type", PushType.all[type].rawValue), ("priority", Self.priorities[priority].description)],
            factory: self.factory
        )
    }

    /// Sets every count back to zero (`POST /api/v1/reset`).
    func reset() {
        self.counters.withLock { counters in
            for slot in self.slots {
                slot.count.store(0, ordering: .relaxed)
                slot.rendered.store(0, ordering: .relaxed)
            }
            for counter in counters.values { counter.reset() }
        }
    }
}
