import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsInspection
import ArgumentParser
import Foundation

/// A failure of `apns-emulator device` after its arguments were accepted.
struct DeviceCommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
