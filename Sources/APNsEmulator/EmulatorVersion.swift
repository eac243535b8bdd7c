import Foundation

/// The version every command prints with `--version`, with the size of the running binary (the
/// release build is stripped when installed: `install -s`, `make install`).
enum EmulatorVersion {
    static let number = "0.19.0"

    static let string: String = {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber else { return number }
        return "\(number) (this binary: \(Self.megabytes(size.int64Value)))"
    }()

    /// A size as a person reads it: `22.1 MB`.
    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
