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
            let text = String(decoding: data, as: UTF8.self)
            let resolver = Resolver.default.removing(.timestamp)
            let loaded: Any?
            do {
                // Yams makes every key a string and stops the process on one that is a list or a
                // mapping (`? [a, b]: 1`, or a stray brace): such a key is refused before it loads.
                let node = try Yams.compose(yaml: text, resolver)
                if let node, let key = Self.complexKey(in: node) {
                    throw ServerError(
                        .badConfiguration, subject: origin,
                        "has a \(key.kind) as a mapping's key (line \(key.line)): keys are names, like devices or topic")
                }
                // What Yams.load gives, from the one parse.
                loaded = node?.any
            } catch let error as ServerError {
                throw error
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

    /// The first mapping key in `node` that is not a plain value: a "list" or a "mapping", and
    /// its line (from 1) in the YAML.
    static func complexKey(in node: Node) -> (kind: String, line: Int)? {
        switch node {
        case .scalar, .alias: return nil
        case .sequence(let sequence): return sequence.lazy.compactMap(Self.complexKey).first
        case .mapping(let mapping):
            for (key, value) in mapping {
                switch key {
                case .sequence(let list): return ("list", list.mark?.line ?? 0)
                case .mapping(let map): return ("mapping", map.mark?.line ?? 0)
                case .scalar, .alias: break
                }
                if let found = Self.complexKey(in: value) { return found }
            }
            return nil
        }
    }

    /// Writes `document` to `path` whole (a temporary file renamed over it), readable by this
    /// user alone: a world holds web apps' private keys and every device's settings.
    public static func write(_ document: JSONValue, to path: String) throws {
        try PrivateFiles.write(document.prettyPrinted + [0x0A], to: path)
    }
}
