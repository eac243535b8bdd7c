import APNsAuth
import APNsCore
import APNsServer
import Crypto
import Foundation
import Yams

/// A config file that cannot be used, in words.
struct ConfigFileError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
