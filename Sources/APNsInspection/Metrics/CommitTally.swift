import APNsCore

/// What one commit's changes came to, counted without touching a shared counter.
struct CommitTally {
    /// HTTP/2, binary, Web Push (``EmulatorMetrics``' order).
    var interfaces = InlineArray<3, Int>(repeating: 0)
    /// Development, production: pushes other than Web Push, by the endpoint they were sent to.
    var environments = InlineArray<2, Int>(repeating: 0)
    /// By ``LogStatus``'s raw value.
    var statuses = InlineArray<8, Int>(repeating: 0)

    mutating func accepted(_ interface: Interface, _ environment: APNsEnvironment) {
        if interface == .http2 {
            self.interfaces[0] += 1
        } else if interface == .webPush {
            self.interfaces[2] += 1
            return
        } else {
            self.interfaces[1] += 1
        }
        self.environments[environment == .production ? 1 : 0] += 1
    }

    mutating func finished(_ status: LogStatus) {
        let slot = Int(status.rawValue)
        if slot < self.statuses.count { self.statuses[slot] += 1 }
    }
}
