import APNsEmulatorTesting
import Testing

/// The Swift fixture's report card. Apple, "Sending notification requests to APNs": keep
/// connections open across notifications; rapid connection and disconnection is treated as a
/// denial-of-service attack.
@Suite("APNsEmulatorTesting: the provider's report card")
struct ProviderReportTestingTests {
    @Test("assertProviderBehaves fails with the evidence when every push opens a connection of its own")
    func connectionPerPush() async throws {
        let emulator = try await TestEmulator.start(auth: .none)
        let token = try await emulator.registerDevice(topic: "com.example.swift")
        for _ in 0..<6 {
            // push(token:...) opens a connection for each push: what the report card fails.
            #expect(try await emulator.push(token: token, topic: "com.example.swift", pushType: "alert").isAccepted)
        }
        let report = try await emulator.providerReport()
        #expect(report.provider.hasPrefix("anonymous-") && report["connection-reuse"]?.verdict == "fail")
        do {
            try await emulator.assertProviderBehaves()
            Issue.record("a connection per push passed")
        } catch let error as TestEmulatorError {
            #expect(error.message.contains("connection-reuse: 6 requests over 6 connections"), "\(error.message)")
            #expect(error.message.contains("source: Apple"))
        }
        #expect(try await emulator.assertProviderBehaves(checks: ["backoff"]).verdict == "fail")
        try await emulator.shutdown()
    }

    @Test("the exam through configure: a provider's 3rd request meets a 429, marked as the exam's")
    func examThroughConfigure() async throws {
        let emulator = try await TestEmulator.start(auth: .none) { $0.providerExam = true }
        let token = try await emulator.registerDevice(topic: "com.example.swift")
        var answers: [PushAnswer] = []
        for _ in 0..<3 { answers.append(try await emulator.push(token: token, topic: "com.example.swift", pushType: "alert")) }
        #expect(answers.map(\.status) == [200, 200, 429])
        #expect(answers.last?.reason == "TooManyRequests")
        let refused = try await emulator.notifications(status: "rejected")
        #expect(refused.map(\.fault) == ["exam"])
        #expect(try await emulator.providerReport().exam)
        try await emulator.shutdown()
    }
}
