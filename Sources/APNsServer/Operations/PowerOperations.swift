import APNsDevice

/// A device's power state changing, as the admin API (`PUT /api/v1/devices/<token>/power`), a
/// device session and the seed each ask for it, written once: the book records it, the hub tells
/// the device's sessions, and what the new state no longer holds back goes to the device soon.
/// Each door reads its own document into a ``DevicePower/Change`` and answers in its own way.
struct PowerOperations {
    let power: DevicePowerBook
    let hub: DeliveryHub
    let relay: Relay

    /// Applies `change` to device `deviceID`; its state afterwards.
    func change(_ deviceID: String, _ change: DevicePower.Change) -> DevicePower {
        let (before, after) = self.power.change(deviceID, change)
        if before != after {
            self.hub.power(device: deviceID, after)
            self.relay.releaseSoon(device: deviceID)
        }
        return after
    }
}
