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

    /// The entry of a notification whose status changed, whole, for its event: as the archive has
    /// it (`archived`), or, where the journal no longer has it, as it left its queue. The
    /// notification is the store's change's where the writer had it whole, else read back from the
    /// log, which keeps it (nil only once `--retain` has let it go too).
    static func changedEntry(
        _ left: LeftNotification, sequence: UInt64, status: JournalStatus, at: Int64, archived: ArchivedRead?,
        from source: (any JournalArchiveSource)?
    ) -> JournalEntry? {
        let key = archived?.key ?? .notification(left.token, sequence: sequence)
        let record = left.whole.map(JournalRecord.notification) ?? source?.records([key]).first ?? nil
        if let archived { return JournalArchive.entry(archived, record: record) }
        guard case .notification(let notification)? = record else { return nil }
        return JournalEntry(id: 0, push: .accepted(notification), status: status, statusAt: at, sequence: sequence)
    }
}
