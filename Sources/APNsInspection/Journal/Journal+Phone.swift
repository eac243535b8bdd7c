import APNsDevice

/// What the phone made of a notification: in the journal's entry, and, for a stored one, kept in
/// the store beside its record so that it survives a restart.
extension Journal {
    /// The phone presented an accepted notification to its device.
    public func presented(uniqueID: String, _ presentation: Presentation) {
        self.recordPhone(uniqueID: uniqueID, event: "presented") {
            PhoneRecord(presentation: presentation, response: $0.response)
        }
    }

    /// The app's notification service extension was handed an accepted notification: until it
    /// answers (or its time runs out) the phone has not presented it.
    public func extending(uniqueID: String) {
        self.change(uniqueID: uniqueID) { $0.marks.insert(.extending) }
    }

    /// The user responded to a notification on the phone.
    public func responded(uniqueID: String, _ response: UserResponse) {
        self.recordPhone(uniqueID: uniqueID, event: "response") { PhoneRecord(presentation: $0.presentation, response: response) }
    }

    /// From now on the phone's record of each stored notification (by its sequence) is also
    /// handed to `keep`, encoded, after the journal has it.
    public func keepPhoneRecords(_ keep: @escaping @Sendable (_ sequence: UInt64, _ record: [UInt8]) -> Void) {
        self.locked { $0.phoneKeeper = keep }
    }

    /// The phone's records kept by ``keepPhoneRecords(_:)``, by sequence, for ``seed(kept:phone:_:)``
    /// (records this version cannot read are left out).
    public static func phoneRecords(from kept: [UInt64: [UInt8]]) -> [UInt64: PhoneRecord] {
        kept.compactMapValues(PhoneRecordCodec.decode)
    }

    private func recordPhone(uniqueID: String, event: String, _ make: (JournalEntry) -> PhoneRecord) {
        var kept: (keep: @Sendable (UInt64, [UInt8]) -> Void, sequence: UInt64, record: PhoneRecord)?
        self.change(uniqueID: uniqueID, { $0.phone = make($0) }) { entry, state in
            Self.emit(Event(kind: event, entry: entry), &state)
            guard let keep = state.phoneKeeper, let sequence = entry.sequence, let record = entry.phone else { return }
            kept = (keep, sequence, record)
        }
        // Encoded and handed over outside the journal's lock.
        if let kept, let bytes = PhoneRecordCodec.encode(kept.record) { kept.keep(kept.sequence, bytes) }
    }
}
