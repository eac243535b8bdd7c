import APNsCore

/// What the journal tells of a notification whose status changed: the Console's name for it, and
/// its entry whole for the event, from what the journal holds or read back from the log.
extension Journal {
    /// The Console's name for a notification's new status, from what the journal holds of it.
    static func outcomeName(_ status: JournalStatus, _ changed: JournalState.Changed?) -> String? {
        switch changed {
        case .whole(let entry): DeliveryLog.outcomeName(status, entry.marks, entry.presentation)
        case .archived(let entry, let extras): DeliveryLog.outcomeName(status, entry.marks, extras?.phone?.presentation)
        case nil: DeliveryLog.outcomeName(status, [], nil)
        }
    }

    /// An archived notification whole, for its event: from the store's change where the writer had
    /// it whole, else read back from the log.
    static func readBack(
        _ read: ArchivedRead, whole: Notification?, from source: (any JournalArchiveSource)?
    ) -> JournalEntry? {
        if let whole { return JournalArchive.entry(read, record: .notification(whole)) }
        guard let key = read.key, let source else { return JournalArchive.entry(read, record: nil) }
        return JournalArchive.entry(read, record: source.records([key]).first ?? nil)
    }

    /// The entry of a notification that left its queue after the journal let it go, for its
    /// event: from the store's change where the writer had the notification whole, else read back
    /// from the log, which keeps it (nil only once `--retain` has let it go too).
    static func rebuilt(
        _ left: LeftNotification, sequence: UInt64, status: JournalStatus, at: Int64,
        from source: (any JournalArchiveSource)?
    ) -> JournalEntry? {
        let read = { () -> Notification? in
            guard case .notification(let read)?? = source?.records([.notification(left.token, sequence: sequence)]).first
            else { return nil }
            return read
        }
        guard let notification = left.whole ?? read() else { return nil }
        return JournalEntry(id: 0, push: .accepted(notification), status: status, statusAt: at, sequence: sequence)
    }
}
