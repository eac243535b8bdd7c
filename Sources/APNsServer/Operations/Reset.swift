import APNsInspection
import NIOCore

/// A reset (`POST /api/v1/reset`), written once: fault rules, the report card's providers, the
/// counters and the clock's offset go; the phone forgets what the store is about to empty
/// (Notification Center, and with `devices` every app's settings); a full reset also forgets the
/// provider's channels and every device's power state, as it forgets tokens; then the store
/// empties, and the journal with it, in order with every other change.
struct Reset {
    let inspection: Inspection
    let clock: EmulatorClock
    let phone: Phone
    let channels: BroadcastChannels
    let power: DevicePowerBook
    let hub: DeliveryHub
    let relay: Relay

    /// Completes once the store has emptied.
    func run(devices: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.inspection.faults.removeAll()
        self.inspection.providers.reset()
        // What the journal has yet to count (the Console's metrics) is counted before the counters go.
        self.inspection.journal.settle()
        self.inspection.metrics.resetCounters()
        self.clock.reset()
        self.phone.reset(devices: devices)
        if devices {
            self.channels.removeAll()
            self.power.removeAll()
            self.hub.powerReset()
        }
        return self.relay.clearStore(devices: devices, on: eventLoop)
    }
}
