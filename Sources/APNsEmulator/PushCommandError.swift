import APNsAuth
import APNsCore
import APNsProviderClient
import ArgumentParser
import Crypto
import Foundation
import NIOCore

/// A failure of `apns-emulator push`, in words.
struct PushCommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
