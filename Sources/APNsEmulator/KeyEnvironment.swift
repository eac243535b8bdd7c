import APNsAuth
import APNsCore
import ArgumentParser
import Crypto
import Foundation

/// `keys create --environment`: Apple's key page offers Sandbox, Production, or both;
/// `development` is taken for sandbox, as `serve --environment` names it.
enum KeyEnvironment: String, ExpressibleByArgument, CaseIterable {
    case sandbox, development, production, both

    /// The one environment the key is bound to; nil for both.
    var environment: APNsEnvironment? {
        switch self {
        case .sandbox, .development: .development
        case .production: .production
        case .both: nil
        }
    }
}
