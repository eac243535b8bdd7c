import Foundation

/// A fresh directory under the system's temporary folder, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "apns-emulator-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        self.path = "\(base)/\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func appending(_ name: String) -> String { "\(self.path)/\(name)" }

    public func remove() throws {
        try FileManager.default.removeItem(atPath: self.path)
    }
}
