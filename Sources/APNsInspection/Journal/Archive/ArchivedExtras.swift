/// What an archived entry holds beyond its index fields, for the few that have any: what the
/// phone and the simulator did, the fault that shaped its answer, and (for a channel request or a
/// broadcast, which the store keeps only as the journal encoded it) the whole entry.
final class ArchivedExtras: Sendable {
    let keptRequestID: String?
    let fault: FaultMark?
    let phone: PhoneRecord?
    let simulator: SimulatorForward?
    let activity: ActivityRecord?
    let heldAt: Int64?
    let kept: JournalEntry?

    init(_ entry: JournalEntry, keptRequestID: String?, keepsWhole: Bool) {
        self.keptRequestID = keptRequestID
        self.fault = entry.fault
        self.phone = entry.phone
        self.simulator = entry.simulator
        self.activity = entry.activity
        self.heldAt = entry.heldAt
        self.kept = keepsWhole ? entry : nil
    }

    /// Whether `entry` has anything an ``ArchivedExtras`` would hold.
    static func needed(for entry: JournalEntry) -> Bool {
        entry.fault != nil || entry.phone != nil || entry.simulator != nil || entry.activity != nil || entry.heldAt != nil
    }
}
