import APNsCore
import NIOCore

extension ByteBuffer {
    mutating func writeDeviceString(_ string: String) {
        let utf8 = string.utf8.prefix(Int(UInt16.max))
        self.writeInteger(UInt16(utf8.count))
        self.writeBytes(utf8)
    }

    /// A hello's body: the version, the device id, and the credential only when there is one.
    mutating func writeHello(version: UInt8, deviceID: String, credential: String?) {
        self.writeInteger(version)
        self.writeDeviceString(deviceID)
        if let credential { self.writeDeviceString(credential) }
    }

    mutating func writeDeviceOptionalString(_ string: String?) {
        if let string {
            self.writeInteger(UInt8(1))
            self.writeDeviceString(string)
        } else {
            self.writeInteger(UInt8(0))
        }
    }

    mutating func writeDevicePayload(_ bytes: [UInt8]) {
        self.writeInteger(UInt32(bytes.count))
        self.writeBytes(bytes)
    }

    mutating func writeDeviceToken(_ token: DeviceToken) {
        self.writeInteger(UInt16(token.bytes.count))
        self.writeBytes(token.bytes)
    }
}
