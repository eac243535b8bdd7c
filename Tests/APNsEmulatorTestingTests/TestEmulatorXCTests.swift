import APNsCore
import APNsEmulatorTesting
import APNsServer
import Foundation
import FoundationNetworking
import Testing
import XCTest

/// The same from XCTest.
final class TestEmulatorXCTests: XCTestCase {
    func testPushAndWait() async throws {
        let emulator = try await TestEmulator.start()
        let token = try await emulator.registerDevice(topic: "com.example.xctest")
        let answer = try await emulator.push(
            token: token, topic: "com.example.xctest", payload: #"{"aps":{"alert":"from XCTest"}}"#)
        XCTAssertEqual(answer.status, 200)
        let sent = try await emulator.waitFor(token: token)
        XCTAssertEqual(sent.alertTitle, "from XCTest")
        try await emulator.shutdown()
    }
}
