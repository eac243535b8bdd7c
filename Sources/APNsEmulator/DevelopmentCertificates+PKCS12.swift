import APNsAuth
import Foundation
import NIOSSL

extension DevelopmentCertificates.ProviderFiles {
    /// Writes the PKCS#12 bundle of the certificate and key to ``pkcs12``, readable by the owner
    /// only. Here rather than in APNsAuth, which has no TLS library: NIOSSL's BoringSSL makes it.
    func writePKCS12(password: String) throws {
        let bundle = NIOSSLPKCS12Bundle(
            certificateChain: [try NIOSSLCertificate(bytes: Array(self.certificatePEM.utf8), format: .pem)],
            privateKey: try NIOSSLPrivateKey(bytes: Array(self.privateKeyPEM.utf8), format: .pem)
        )
        let pkcs12 = try bundle.serialize(passphrase: Array(password.utf8))
        guard FileManager.default.createFile(atPath: self.pkcs12, contents: Data(pkcs12), attributes: [.posixPermissions: 0o600])
        else {
            throw AuthError(.certificates, "cannot write \(self.pkcs12)")
        }
    }
}
