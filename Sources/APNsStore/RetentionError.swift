/// A `--retain` part that is neither a count, a size nor an age.
public struct RetentionError: Error, CustomStringConvertible {
    public let part: String
    public var description: String {
        "--retain: \"\(self.part)\" is not a count (500000), a size (512MiB, 2GiB) or an age (90m, 24h, 7d); separate several with commas"
    }
}
