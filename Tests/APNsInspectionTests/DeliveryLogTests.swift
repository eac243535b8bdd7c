import APNsCore
import APNsDevice
import Testing

@testable import APNsInspection

/// The delivery log built from a journal entry, in the Push Notifications Console's words
/// ("Viewing the status of push notifications using Metrics and APNs").
@Suite("Delivery log")
struct DeliveryLogTests {
    func entry(
        _ status: JournalStatus, marks: DeliveryMarks = [], collapse: String? = nil, statusAt: Int64? = 5_000
    ) -> JournalEntry {
        var notification = JournalStateTests.notification(1)
        notification.collapseID = collapse
        var entry = JournalEntry(
            id: 1, push: .accepted(notification), status: status, statusAt: statusAt, sequence: 1, marks: marks)
        entry.heldAt = marks.contains(.storedPower) ? 2_000 : nil
        return entry
    }

    func names(_ entry: JournalEntry) -> [String] { DeliveryLog.events(of: entry)?.map(\.event) ?? [] }

    @Test("each way out has its step, with From Storage when it waited")
    func outcomes() {
        #expect(self.names(self.entry(.queued, statusAt: nil)) == ["Received by APNs"])
        #expect(
            self.names(self.entry(.queued, marks: .storedOffline, statusAt: nil)) == [
                "Received by APNs", "Stored - Device Offline",
            ])
        #expect(self.names(self.entry(.delivered)) == ["Received by APNs", "Delivered to Device"])
        #expect(
            self.names(self.entry(.delivered, marks: .storedPower)) == [
                "Received by APNs", "Stored - Power Considerations", "Delivered to Device (From Storage)",
            ])
        #expect(
            self.names(self.entry(.expired, marks: .storedOffline)) == [
                "Received by APNs", "Stored - Device Offline", "Discarded - Expired",
            ])
        #expect(self.names(self.entry(.discarded)) == ["Received by APNs", "Discarded - Expired"])
        #expect(self.names(self.entry(.unregistered)) == ["Received by APNs", "Discarded - Token Unregistered"])
        let replaced = DeliveryLog.events(of: self.entry(.replaced, marks: .storedOffline, collapse: "score"))
        #expect(replaced?.last?.event == "Replaced - Newer Notification" && replaced?.last?.detail.contains("score") == true)
        // Without a collapse id the reason is APNs's own: one stored notification per app while offline.
        let newest = DeliveryLog.events(of: self.entry(.replaced, marks: .storedOffline))?.last
        #expect(newest?.event == "Replaced - Newer Notification")
        #expect(newest?.detail.contains("APNs stores one notification per app") == true)
        #expect(self.names(self.entry(.dropped)).last == "Dropped - Storage Full")
        // Times: received at its arrival, held when first held, the outcome at its status time.
        #expect(DeliveryLog.events(of: self.entry(.delivered, marks: .storedPower))?.map(\.at) == [1_001, 2_000, 5_000])
    }

    @Test("a presentation the user turned off is Discarded - Disabled; the phone's decision comes last")
    func disabled() {
        var entry = self.entry(.delivered, marks: .storedOffline)
        var presentation = Presentation()
        presentation.notificationsDisabled = true
        presentation.suppressed = [Suppression(what: "alert", reason: "the user denied the app notifications")]
        entry.phone = PhoneRecord(presentation: presentation, response: nil)
        let events = DeliveryLog.events(of: entry) ?? []
        #expect(
            events.map(\.event) == [
                "Received by APNs", "Stored - Device Offline", "Discarded - Disabled (From Storage)", "Phone Decision",
            ])
        #expect(events.last?.detail.contains("denied") == true)
    }

    @Test("Prometheus names follow the Console's words")
    func names() {
        #expect(ConsoleMetrics.prometheusName("Stored - Device Offline") == "apns_stored_device_offline_total")
        #expect(
            ConsoleMetrics.prometheusName("Delivered to Device (From Storage)") == "apns_delivered_to_device_from_storage_total")
        #expect(ConsoleMetrics.prometheusName("Received by APNs") == "apns_received_by_apns_total")
    }
}
