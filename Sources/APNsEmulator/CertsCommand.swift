import APNsAuth
import ArgumentParser
import Foundation

/// `apns-emulator certs`: certificate tools.
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Create the emulator's development certificates and provider certificates.",
        version: EmulatorVersion.string,
        subcommands: [Generate.self, Provider.self]
    )

    /// `apns-emulator certs generate`: a new development CA and localhost server certificate.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Create a new development CA and a server certificate for localhost, 127.0.0.1 and ::1 (replacing any there).",
            version: EmulatorVersion.string
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

    /// `apns-emulator certs provider`: a provider client certificate signed by the development CA.
    struct Provider: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mint a provider (client) certificate for a topic, signed by the development CA, as PEM and PKCS#12.",
            version: EmulatorVersion.string
        )

        @Option(help: "The app's bundle id: the certificate's UID and first topic.")
        var topic: String

        @Flag(help: "Also allow the topic's .voip variant (a multi-topic certificate: requests must then name apns-topic).")
        var voip = false

        @Flag(
            name: .customLong("no-topics"),
            help: "Name no topic at all (no UID, no topics extension): APNs answers such a certificate with 403 BadCertificate.")
        var noTopics = false

        @Option(help: "development (sandbox only), production, or universal (both).")
        var environment = DevelopmentCertificates.ProviderEnvironment.development

        @Option(name: .customLong("certs-dir"), help: "Where the development CA is (created if missing), as serve --certs-dir.")
        var certificatesDirectory = "certs"

        @Option(
            name: .customLong("out"),
            help:
                "Directory to write <topic>.pem, <topic>-cert.pem, <topic>-key.pem and <topic>.p12 into (creds/ is git-ignored: it holds private keys)."
        )
        var directory = "creds"

        @Option(name: .customLong("p12-password"), help: "Password of the PKCS#12 file.")
        var pkcs12Password = ""

        func validate() throws {
            guard !self.topic.isEmpty, !self.topic.contains("/"), self.topic.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
                throw ValidationError("--topic must be a bundle id such as com.example.app")
            }
        }

        func run() throws {
            let files = try DevelopmentCertificates.provider(
                topic: self.topic,
                voip: self.voip,
                withTopics: !self.noTopics,
                environment: self.environment,
                certificatesDirectory: self.certificatesDirectory,
                outputDirectory: self.directory
            )
            try files.writePKCS12(password: self.pkcs12Password)
            say("certificate and key: \(files.combined)  (what most provider libraries load)")
            say("certificate:         \(files.certificate)")
            say("private key:         \(files.privateKey)")
            say("PKCS#12:             \(files.pkcs12)  (password: \(self.pkcs12Password.isEmpty ? "empty" : "as given"))")
        }
    }
}

extension DevelopmentCertificates.ProviderEnvironment: ExpressibleByArgument {}
