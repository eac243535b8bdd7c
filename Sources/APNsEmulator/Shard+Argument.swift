import APNsCore
import ArgumentParser

/// `--shard K/N`.
extension Shard: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
