import APNsCore
import APNsDevice
import APNsWire

/// The device's power and connectivity (``DevicePower``): what is held back, and the bursts.
extension DeviceSessionHandler {
    /// Keeps a notification back for a later burst; the journal notes when it was first held.
    func hold(_ notification: Notification) {
        guard !self.held.contains(where: { $0.uniqueID == notification.uniqueID }) else { return }
        self.held.append(notification)
        self.phone.journal.held(uniqueID: notification.uniqueID, at: self.phone.clock())
    }

    /// Hands over, in one burst and in order, what waited: everything (`all`, the device is awake
    /// for a priority-10 notification) or what the power state no longer holds.
    func releaseHeld(all: Bool) {
        let burst = all ? self.held : self.held.filter { self.power.holds($0.priority) == nil }
        guard !burst.isEmpty else { return }
        let released = Set(burst.map(\.uniqueID))
        self.held.removeAll { released.contains($0.uniqueID) }
        for notification in burst { self.handOver(notification) }
    }

    /// The device (here or through the admin API) changed its power state.
    func powerChanged(_ power: DevicePower) {
        let before = self.power
        guard power != before else { return }
        self.power = power
        if before.online, !power.online {
            // Gone offline: its tokens stop being reachable, so what comes now is stored; what was
            // held stays queued in the store.
            if let subscriber = self.subscriber {
                for token in self.machine.tokens.keys { self.hub.unsubscribe(token, subscriber) }
            }
            self.held = []
        } else if !before.online, power.online {
            self.drain(Array(self.machine.tokens.keys))
        } else {
            self.releaseHeld(all: false)
        }
        if self.machine.version >= 2, let deviceID = self.machine.deviceID {
            self.send(.power(document: power.json(deviceID: deviceID)))
        }
    }

    /// The device asks to change its power state: answered with the state, or refused.
    func changePower(deviceID: String, document: [UInt8]) {
        let change: DevicePower.Change
        do {
            change = try DevicePower.Change(document: document)
        } catch {
            return self.send(.refused(subject: deviceID, status: 400, message: error.message))
        }
        let after = PowerOperations(power: self.powerBook, hub: self.hub, relay: self.relay).change(deviceID, change)
        // The hub tells every session of the device, this one too, when it changed; an
        // unchanged state is answered here.
        if after == self.power { self.send(.power(document: after.json(deviceID: deviceID))) }
    }
}
