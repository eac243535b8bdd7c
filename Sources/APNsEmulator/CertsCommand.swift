import Foundation
import APNsServer
import ArgumentParser

/// `apns-emulator certs`: certificate tools.
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Create the emulator's development certificates.",
        subcommands: [Generate.self]
    )

    /// `apns-emulator certs generate`: a new development CA and localhost server certificate.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a new development CA and a server certificate for localhost, 127.0.0.1 and ::1 (replacing any there)."
        )

        @Option(name: .customLong("out"), help: "Directory to write ca.pem, ca-key.pem, server.pem and server-key.pem into.")
        var directory = "certs"

        func run() throws {
            let files = try DevelopmentCertificates.generate(into: self.directory)
            say("CA certificate:     \(files.caCertificate)  (trust this one)")
            say("CA private key:     \(files.caPrivateKey)  (keep private)")
            say("server certificate: \(files.serverCertificate)")
            say("server private key: \(files.serverPrivateKey)")
        }
    }
}
