import APNsTestSupport
import Foundation
import Testing

/// What APNs accepts but a device would not show as meant: a 200 as APNs answers, plus the
/// emulator's `apns-emulator-warning` headers, the journal's `warnings` and a counter (issue 13, item 12).
@Suite("Warnings on accepted pushes")
struct WarningTests {
    static let token = String(repeating: "5e", count: 32)

    @Test("a background push at priority 10 is accepted with a warning in the answer, the journal and the metrics")
    func backgroundAtPriority10() async throws {
        try await withEmulator { emulator in
            let provider = try await emulator.http2Client()
            // As a common Python library sends silent pushes: push type background, no priority header.
            let silent = try await provider.push(
                token: Self.token, headers: [("apns-topic", "com.example.app"), ("apns-push-type", "background")],
                json: #"{"aps":{"content-available":1}}"#
            )
            #expect(silent.status == 200)
            let warnings = silent.headers.filter { $0.name == "apns-emulator-warning" }.map(\.value)
            #expect(warnings.count == 1)
            #expect(warnings.first?.hasPrefix("background-priority: ") == true, "\(warnings)")

            let clean = try await provider.push(
                token: Self.token, headers: [("apns-topic", "com.example.app")], json: #"{"aps":{"alert":"hi"}}"#)
            #expect(clean.status == 200)
            #expect(!clean.headers.contains { $0.name == "apns-emulator-warning" })

            let page = try await emulator.adminObject("/api/v1/notifications?token=\(Self.token)")
            let items = try #require(page["items"] as? [[String: Any]])
            try #require(items.count == 2)
            #expect(items[0]["warnings"] as? [String] == [], "newest first: the clean push")
            #expect((items[1]["warnings"] as? [String])?.first == warnings.first)

            let metrics = try await emulator.admin("/metrics").text
            #expect(metrics.contains(#"apns_notifications_warnings_total{code="background-priority"} 1"#), "\(metrics)")
        }
    }

    @Test("a voip push to a topic without .voip, and a sound without an extension: two warnings, still 200")
    func twoWarnings() async throws {
        try await withEmulator { emulator in
            let provider = try await emulator.http2Client()
            let answer = try await provider.push(
                token: Self.token, headers: [("apns-topic", "com.example.app"), ("apns-push-type", "voip")],
                json: #"{"aps":{"alert":"call","sound":"ring\ntone"}}"#
            )
            #expect(answer.status == 200)
            let codes = answer.headers.filter { $0.name == "apns-emulator-warning" }.map { $0.value.prefix { $0 != ":" } }
            #expect(codes == ["topic-suffix", "sound-extension"])
            #expect(answer.headers.allSatisfy { !$0.value.contains("\n") })
        }
    }

    @Test(
        "issue 50: no apns-topic under --auth none is 200 with missing-topic (APNs: 400 MissingTopic), a misspelt aps member names the nearest"
    )
    func silentAcceptances() async throws {
        try await withEmulator { emulator in
            let provider = try await emulator.http2Client()
            let untopiced = try await provider.push(token: Self.token, headers: [], json: #"{"aps":{"alert":"hi"}}"#)
            let warnings = untopiced.headers.filter { $0.name == "apns-emulator-warning" }.map(\.value)
            #expect(untopiced.status == 200 && warnings.count == 1 && warnings[0].hasPrefix("missing-topic: "), "\(warnings)")
            #expect(warnings.first?.contains("MissingTopic") == true)
            let typo = try await provider.push(
                token: Self.token, headers: [("apns-topic", "com.example.app")], json: #"{"aps":{"alert":"hi","badg":2}}"#)
            let said = typo.headers.filter { $0.name == "apns-emulator-warning" }.map(\.value)
            #expect(typo.status == 200 && said == [#"aps-unknown-key: aps has no member "badg": the device ignores it; did you mean "badge"?"#])
            let item = try await emulator.adminObject("/api/v1/notifications/latest")
            #expect((item["warnings"] as? [String]) == said)
        }
    }
}
