import APNsCore
import Foundation
import Yams

/// A seed file on disk (`serve --seed`, `serve --config`, a fixture's seed): JSON or YAML, read
/// into a ``SeedDocument``, and written (`export`, `serve --export-on-exit`) as pretty JSON.
extension SeedDocument {
    /// Reads and checks `path`; errors name `option`, the file and the entry at fault.
    public static func read(_ path: String, option: String = "seed") throws -> SeedDocument {
        let origin = "\(option) \(path)"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError(
                .badConfiguration, subject: origin, "cannot read it (looked in \(FileManager.default.currentDirectoryPath))")
        }
        let root: JSONValue
        if let json = JSONValue.parse(Array(data)) {
            root = json
        } else {
            // YAML, its dates left as the strings they are (the seed reads RFC 3339 itself).
            let loaded: Any?
            do {
                loaded = try Yams.load(yaml: String(decoding: data, as: UTF8.self), Resolver.default.removing(.timestamp))
            } catch {
                throw ServerError(.badConfiguration, subject: origin, "is not JSON or YAML: \(error)")
            }
            guard let loaded, let value = JSONValue(foundation: loaded) else {
                throw ServerError(
                    .badConfiguration, subject: origin, "must be a mapping of sections (devices, keys, faults, ...)")
            }
            root = value
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try SeedDocument(root, origin: origin, directory: directory)
    }

    /// Writes `document` to `path` whole (a temporary file renamed over it), readable by this
    /// user alone: a world holds web apps' private keys and every device's settings.
    public static func write(_ document: JSONValue, to path: String) throws {
        try PrivateFiles.write(document.prettyPrinted + [0x0A], to: path)
    }
}
