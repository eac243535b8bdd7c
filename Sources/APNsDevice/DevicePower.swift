import APNsCore

/// A device's power and connectivity, and what they mean for a notification's priority.
///
/// - `online` false: the device has no network; APNs stores what comes for it ("Stored - Device
///   Offline") and delivers it from storage when it is back, as for a device not connected.
/// - `lowPowerMode`: priority 5 and 1 wait ("Stored - Power Considerations"); priority 10 goes at
///   once.
/// - `locked` (the screen off, the device asleep): priority 1 never wakes it, so it waits;
///   priority 5 and 10 go.
///
/// What waits goes in one burst, oldest first, when the device is awake anyway: a priority-10
/// notification reaches it, Low Power Mode ends (priority 5, and priority 1 unless locked), or it
/// is unlocked (priority 1, unless Low Power Mode still holds it).
public struct DevicePower: Hashable, Sendable {
    public var online = true
    public var lowPowerMode = false
    public var locked = false

    public init(online: Bool = true, lowPowerMode: Bool = false, locked: Bool = false) {
        self.online = online
        self.lowPowerMode = lowPowerMode
        self.locked = locked
    }

    /// Why a notification of `priority` waits rather than reaching the device now; nil when it goes.
    public func holds(_ priority: Priority) -> String? {
        guard priority != .immediate else { return nil }
        if self.lowPowerMode {
            return "Low Power Mode: priority \(priority.rawValue) waits for a burst (priority 10 goes at once)"
        }
        if self.locked, priority == .prioritizePower {
            return "the device is locked and asleep: priority 1 never wakes it"
        }
        return nil
    }

    /// This state with `change` applied: what it names is set, the rest stays.
    public func applying(_ change: Change) -> DevicePower {
        DevicePower(
            online: change.online ?? self.online, lowPowerMode: change.lowPowerMode ?? self.lowPowerMode,
            locked: change.locked ?? self.locked)
    }
}
