import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser

// The settings' own types as command-line arguments, by their raw values (`--durability relaxed`).
extension Durability: ExpressibleByArgument {}
extension TokenPolicy: ExpressibleByArgument {}
extension StoragePolicy: ExpressibleByArgument {}
extension APNsEnvironment: ExpressibleByArgument {}
extension AuthMode: ExpressibleByArgument {}
