import APNsCore
import APNsDevice
import Testing

/// What a device's power state holds back. Source: "Sending notification requests to APNs"
/// (apns-priority 10: at once; 5: based on power considerations on the device; 1: prioritise the
/// device's power and do not awaken it).
@Suite("Device power")
struct DevicePowerTests {
    @Test("priority 10 always goes; Low Power Mode holds 5 and 1; locked holds only 1")
    func holds() {
        #expect(DevicePower().holds(.conservePower) == nil && DevicePower().holds(.prioritizePower) == nil)
        let low = DevicePower(lowPowerMode: true)
        #expect(low.holds(.immediate) == nil)
        #expect(low.holds(.conservePower)?.contains("Low Power Mode") == true)
        #expect(low.holds(.prioritizePower) != nil)
        let locked = DevicePower(locked: true)
        #expect(locked.holds(.immediate) == nil && locked.holds(.conservePower) == nil)
        #expect(locked.holds(.prioritizePower)?.contains("never wakes") == true)
    }

    @Test("a change document sets what it names; anything else is refused and changes nothing")
    func apply() throws {
        var power = DevicePower()
        power = power.applying(try DevicePower.Change(document: Array(#"{"lowPowerMode": true, "locked": true}"#.utf8)))
        #expect(power == DevicePower(online: true, lowPowerMode: true, locked: true))
        power = power.applying(try DevicePower.Change(document: Array("{}".utf8)))
        #expect(power == DevicePower(online: true, lowPowerMode: true, locked: true))
        let refusals = [
            #"{"online": 1}"#: "online is true or false", #"{"online": false, "sleep": true}"#: "unknown member sleep",
            "[]": "a power document is a JSON object", "nope": "a power document is a JSON object",
        ]
        for (bad, message) in refusals {
            let error = #expect(throws: DeviceModelError.self, "\(bad)") { _ = try DevicePower.Change(document: Array(bad.utf8)) }
            #expect(error?.message.contains(message) == true, "\(bad): \(error?.message ?? "no error")")
        }
        #expect(power.online)
    }
}
