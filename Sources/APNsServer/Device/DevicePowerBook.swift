import APNsDevice
import Synchronization

/// Each emulated device's power and connectivity (``DevicePower``), by device id; a device nobody
/// set is online, awake and not in Low Power Mode. Kept in memory: a restarted emulator's devices
/// start online, as a phone does after a reboot. Device sessions keep their own copy, told of
/// every change through the hub, so a delivery never takes this lock.
///
/// Thread-safe.
public final class DevicePowerBook: Sendable {
    private let states = Mutex<[String: DevicePower]>([:])

    public init() {}

    public func power(of deviceID: String) -> DevicePower {
        self.states.withLock { $0[deviceID] } ?? DevicePower()
    }

    /// Applies a change; returns the state before and after.
    func change(_ deviceID: String, _ change: DevicePower.Change) -> (before: DevicePower, after: DevicePower) {
        self.states.withLock { states in
            let before = states[deviceID] ?? DevicePower()
            let after = before.applying(change)
            states[deviceID] = after == DevicePower() ? nil : after
            return (before, after)
        }
    }

    /// Every device back to its default (`POST /api/v1/reset?devices=true`).
    func removeAll() {
        self.states.withLock { $0 = [:] }
    }
}
