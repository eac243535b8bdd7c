import APNsCore
import APNsDevice

extension DevicePower {
    /// The state as the admin API and the device protocol show it: `deviceId`, `online`,
    /// `lowPowerMode`, `locked`.
    func json(deviceID: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("deviceId") { $0.string(deviceID) }
            members.member("online") { $0.raw(self.online ? "true" : "false") }
            members.member("lowPowerMode") { $0.raw(self.lowPowerMode ? "true" : "false") }
            members.member("locked") { $0.raw(self.locked ? "true" : "false") }
        }
        return writer.bytes
    }
}
