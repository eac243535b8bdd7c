import APNsDevice
import APNsWire
import Foundation

/// The device's power and connectivity: offline, Low Power Mode, locked. What they hold back is
/// delivered in a burst when the device is awake again (see ``DevicePower``).
extension DeviceClient {
    /// Changes what is given (nil leaves it as it is) and returns the state afterwards; with
    /// nothing given, only asks. Needs protocol version 2.
    public func setPower(online: Bool? = nil, lowPowerMode: Bool? = nil, locked: Bool? = nil) async throws -> DevicePowerState {
        let members = [("online", online), ("lowPowerMode", lowPowerMode), ("locked", locked)].compactMap { name, value in
            value.map { "\"\(name)\": \($0)" }
        }
        let reply = try await self.request(
            .power(document: Array("{\(members.joined(separator: ", "))}".utf8)), expecting: .power, subject: self.deviceID)
        guard case .power(let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(DevicePowerState.self, from: Data(body))
    }
}
