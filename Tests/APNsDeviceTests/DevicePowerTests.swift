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
        try power.apply(Array(#"{"lowPowerMode": true, "locked": true}"#.utf8))
        #expect(power == DevicePower(online: true, lowPowerMode: true, locked: true))
        try power.apply(Array("{}".utf8))
        #expect(power == DevicePower(online: true, lowPowerMode: true, locked: true))
        for bad in [#"{"online": 1}"#, #"{"online": false, "sleep": true}"#, "[]", "nope"] {
            #expect(throws: DeviceModelError.self, "\(bad)") { try power.apply(Array(bad.utf8)) }
        }
        #expect(power.online)
    }
}
