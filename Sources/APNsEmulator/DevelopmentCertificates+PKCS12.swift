import APNsAuth
import CNIOBoringSSL
import Foundation

extension DevelopmentCertificates.ProviderFiles {
    /// Writes the PKCS#12 bundle of the certificate and key to ``pkcs12``, readable by the owner
    /// only, in the form Keychain Access exports (key and certificate under
    /// pbeWithSHAAnd3-KeyTripleDES-CBC, an HMAC-SHA1 MAC): the one form every client library reads.
    /// Go's golang.org/x/crypto/pkcs12 knows no PBES2, so BoringSSL's default (AES-256 under PBES2)
    /// failed there with "algorithm 1.2.840.113549.1.5.13 is not supported"; Java, OpenSSL 3 and
    /// NIOSSL read both. The bundle is made by BoringSSL's `PKCS12_create`, as NIOSSL makes it,
    /// called here directly because NIOSSL has no way to name the cipher.
    func writePKCS12(password: String) throws {
        let der = try Self.pkcs12(certificatePEM: self.certificatePEM, keyPEM: self.privateKeyPEM, password: password)
        guard FileManager.default.createFile(atPath: self.pkcs12, contents: Data(der), attributes: [.posixPermissions: 0o600])
        else {
            throw AuthError(.certificates, "cannot write \(self.pkcs12)")
        }
    }

    static func pkcs12(certificatePEM: String, keyPEM: String, password: String) throws -> [UInt8] {
        guard let certificate = Self.read(certificatePEM, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw AuthError(.certificates, "the certificate PEM cannot be read")
        }
        defer { X509_free(certificate) }
        guard let key = Self.read(keyPEM, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw AuthError(.certificates, "the private key PEM cannot be read")
        }
        defer { EVP_PKEY_free(key) }
        let tripleDES = NID_pbe_WithSHA1And3_Key_TripleDES_CBC
        guard let bundle = PKCS12_create(password, nil, key, certificate, nil, tripleDES, tripleDES, 2048, 2048, 0) else {
            throw AuthError(.certificates, "BoringSSL could not make the PKCS#12 bundle")
        }
        defer { PKCS12_free(bundle) }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PKCS12(bundle, &out)
        guard length > 0, let out else {
            throw AuthError(.certificates, "BoringSSL could not encode the PKCS#12 bundle")
        }
        defer { OPENSSL_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    private static func read<T>(_ pem: String, _ body: (OpaquePointer) -> T?) -> T? {
        let bytes = Array(pem.utf8)
        return bytes.withUnsafeBytes { raw -> T? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }
}
