import NIOCore

/// What the emulator's clock reaching a time does, written once for the two that move it (the
/// half-second timer beside the listeners, and the admin API's clock move before it answers):
/// Live Activities turn stale, end or leave, service extensions run out of time, the Scheduled
/// Summaries it reached are presented, and the local notifications it reached fire.
struct ClockStep {
    let phone: Phone
    let relay: Relay

    func run(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let (phone, relay) = (self.phone, self.relay)
        return phone.activities.advanceActivities(on: eventLoop)
            .map {
                phone.notifications.expireExtensions()
                phone.focus.presentDueSummaries()
            }
            .flatMap { relay.fireDue(on: eventLoop) }
    }
}
