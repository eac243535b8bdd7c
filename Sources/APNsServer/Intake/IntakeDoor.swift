import APNsCore
import APNsInspection
import APNsStore
import NIOCore

/// A front door's side of the one intake (``PushIntake/take(_:on:submitted:answer:)``): what it
/// read, and how its answers are made and journaled. The steps and their order are the intake's;
/// what differs between doors is only their wire and their checks.
protocol IntakeDoor: FaultDoor {
    /// What an accepted push is answered with here.
    associatedtype Accepted

    /// The interface its pushes are counted under.
    var interface: Interface { get }
    /// When the request was complete: its latency counts from here.
    var started: NIODeadline { get }

    /// Checks the request (validation, the provider's authorization for it): the notification to
    /// store and the lint's reading of its payload, or the refusal.
    mutating func validate(in intake: PushIntake) -> Result<(Notification, APSFacts?), Refusal>
    /// What the store's answer refuses (a token it does not know or no longer valid); nil when stored.
    func refusal(for outcome: StoreOutcome, of notification: Notification) -> Refusal?
    /// What an error storing it becomes.
    func refusal(for error: any Error, of notification: Notification) -> Refusal
    /// The lint's warnings for a stored one.
    func warnings(for notification: Notification, aps: APSFacts?) -> [PushWarning]
    /// The answer to a stored one (and what the door records of it).
    func accepted(_ notification: Notification, warnings: [PushWarning], in intake: PushIntake) -> Accepted
}
