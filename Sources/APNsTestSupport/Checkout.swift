import Foundation

/// Where the repository is, for tests that run its scripts: from this file's place in it, so a
/// test file may sit in any folder.
public enum Checkout {
    /// The repository's root (this file is `Sources/APNsTestSupport/Checkout.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A script of `Tests/ThirdParty` (third-party clients and browsers the tests drive).
    public static func thirdParty(_ name: String) -> String {
        root.appendingPathComponent("Tests/ThirdParty").appendingPathComponent(name).path
    }
}
