import APNsAuth
import APNsCore
import Crypto
import Foundation

/// What went wrong: a wait that timed out (with what came closest), or an admin call refused.
public struct TestEmulatorError: Error, CustomStringConvertible, Sendable {
    /// What failed, in words.
    public var message: String
    /// For a wait: the newest notifications that arrived, each with the conditions it failed.
    public var nearMisses: [String] = []

    /// The message and each near miss, one a line.
    public var description: String {
        self.nearMisses.isEmpty
            ? self.message : self.message + "\nnear misses:\n" + self.nearMisses.map { "  " + $0 }.joined(separator: "\n")
    }
}
