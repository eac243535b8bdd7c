package apnsemulator;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Web Push as an application server sends it, with the JDK alone: the message encrypted for a
 * subscription (RFC 8291, aes128gcm), a VAPID JWT for the endpoint's origin (RFC 8292, ES256),
 * POSTed to the endpoint (RFC 8030 section 5). What Web Push libraries do; here so that a Java
 * test can play the server without Maven.
 */
public final class WebPush {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

    private WebPush() {}

    /** What {@code PushSubscription.toJSON()} gives the page: the endpoint and the keys to encrypt for. */
    public record Subscription(String endpoint, String p256dh, String auth) {}

    /** A web app subscribed on the emulated phone; {@code subscription} is what to hand the server. */
    public record WebApp(String id, String origin, String kind, Subscription subscription, String token, String hostToken,
            Map<String, Object> raw) {}

    /** One web push as the emulated browser handled it ({@code outcome}: declarative, serviceWorker, notAllowed, undecryptable, unsubscribed). */
    public record Received(String uniqueId, String outcome, String message, boolean shown, String title, String body,
            String navigate, Integer appBadge, String vapidSubject, Map<String, Object> raw) {}

    /** The push service's answer. */
    public record Result(int status, String reason, String location, String uniqueId, List<String> warnings,
            HttpClient.Version version) {}

    /** An application server's choices for one push: TTL in seconds (0: now or never), Urgency, Topic (null for none). */
    public record Options(KeyPair vapid, String subject, int ttl, String urgency, String topic) {
        public Options(KeyPair vapid, String subject) {
            this(vapid, subject, 60, null, null);
        }
    }

    /** A new VAPID key pair (P-256). */
    public static KeyPair vapidKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException error) {
            throw new IllegalStateException("this JDK has no P-256: " + error, error);
        }
    }

    /** The public key as subscribe's applicationServerKey: base64url of the 65-byte uncompressed point. */
    public static String publicKey(KeyPair keys) {
        return URL.encodeToString(uncompressed((ECPublicKey) keys.getPublic()));
    }

    static byte[] uncompressed(ECPublicKey key) {
        byte[] point = new byte[65];
        point[0] = 4;
        fixed(key.getW().getAffineX(), point, 1);
        fixed(key.getW().getAffineY(), point, 33);
        return point;
    }

    /** {@code value} as 32 big-endian bytes at {@code offset}. */
    private static void fixed(BigInteger value, byte[] into, int offset) {
        byte[] bytes = value.toByteArray();
        int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, into, offset + 32 - length, length);
    }

    /** HKDF-SHA-256 (RFC 5869) of at most 32 bytes: one block of expansion. */
    static byte[] hkdf(byte[] salt, byte[] secret, byte[] info, int length) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(salt, "HmacSHA256"));
        byte[] pseudoRandom = mac.doFinal(secret);
        mac.init(new SecretKeySpec(pseudoRandom, "HmacSHA256"));
        mac.update(info);
        mac.update((byte) 1);
        return Arrays.copyOf(mac.doFinal(), length);
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer out = ByteBuffer.allocate(Arrays.stream(parts).mapToInt(part -> part.length).sum());
        for (byte[] part : parts) out.put(part);
        return out.array();
    }

    /**
     * The aes128gcm body of {@code message} for a subscription's keys (RFC 8291 section 3.4): salt,
     * record size, the sender's public key, then one record ending in the delimiter 2.
     */
    public static byte[] encrypt(byte[] message, Subscription subscription) throws GeneralSecurityException {
        byte[] receiver = Base64.getUrlDecoder().decode(subscription.p256dh());
        byte[] authSecret = Base64.getUrlDecoder().decode(subscription.auth());
        KeyPair sender = vapidKeys();
        ECPublicKey senderPublic = (ECPublicKey) sender.getPublic();
        ECPoint point = new ECPoint(new BigInteger(1, Arrays.copyOfRange(receiver, 1, 33)), new BigInteger(1, Arrays.copyOfRange(receiver, 33, 65)));
        ECPublicKey receiverKey = (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(point, senderPublic.getParams()));
        KeyAgreement agreement = KeyAgreement.getInstance("ECDH");
        agreement.init(sender.getPrivate());
        agreement.doPhase(receiverKey, true);
        byte[] shared = agreement.generateSecret();
        byte[] senderPoint = uncompressed(senderPublic);
        byte[] ikm = hkdf(authSecret, shared, concat("WebPush: info\0".getBytes(StandardCharsets.US_ASCII), receiver, senderPoint), 32);
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        byte[] key = hkdf(salt, ikm, "Content-Encoding: aes128gcm\0".getBytes(StandardCharsets.US_ASCII), 16);
        byte[] nonce = hkdf(salt, ikm, "Content-Encoding: nonce\0".getBytes(StandardCharsets.US_ASCII), 12);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        byte[] sealed = cipher.doFinal(concat(message, new byte[] {2}));
        return concat(salt, ByteBuffer.allocate(4).putInt(4096).array(), new byte[] {(byte) senderPoint.length}, senderPoint, sealed);
    }

    /** {@code vapid t=<JWT>, k=<public key>} for the endpoint's origin (RFC 8292 section 3). */
    public static String vapidAuthorization(String endpoint, KeyPair vapid, String subject) throws GeneralSecurityException {
        URI uri = URI.create(endpoint);
        String audience = uri.getScheme() + "://" + uri.getRawAuthority();
        long expires = System.currentTimeMillis() / 1000 + 12 * 3600;
        String header = URL.encodeToString("{\"typ\":\"JWT\",\"alg\":\"ES256\"}".getBytes(StandardCharsets.UTF_8));
        String claims = URL.encodeToString(Json.write(Map.of("aud", audience, "exp", expires, "sub", subject)).getBytes(StandardCharsets.UTF_8));
        Signature signer = Signature.getInstance("SHA256withECDSAinP1363Format");
        signer.initSign(vapid.getPrivate());
        signer.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        return "vapid t=" + header + "." + claims + "." + URL.encodeToString(signer.sign()) + ", k=" + publicKey(vapid);
    }

    /** Sends {@code message} to {@code subscription} with {@code client} (which must trust the endpoint's certificate). */
    public static Result send(HttpClient client, Subscription subscription, byte[] message, Options options)
            throws IOException, InterruptedException {
        if (options.vapid() == null || options.subject() == null) {
            throw new IllegalArgumentException("a web push needs a VAPID key pair (WebPush.vapidKeys()) and a subject (mailto: or https:)");
        }
        HttpRequest.Builder request;
        try {
            request = HttpRequest.newBuilder(URI.create(subscription.endpoint())).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(encrypt(message, subscription)))
                    .header("content-encoding", "aes128gcm").header("content-type", "application/octet-stream")
                    .header("ttl", Integer.toString(options.ttl()))
                    .header("authorization", vapidAuthorization(subscription.endpoint(), options.vapid(), options.subject()));
        } catch (GeneralSecurityException error) {
            throw new IOException("cannot encrypt or sign the web push: " + error, error);
        }
        if (options.urgency() != null) request.header("urgency", options.urgency());
        if (options.topic() != null) request.header("topic", options.topic());
        HttpResponse<String> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        String reason = null;
        if (!answer.body().isEmpty() && Json.parse(answer.body()) instanceof Map<?, ?> body) reason = (String) body.get("reason");
        return new Result(answer.statusCode(), reason, answer.headers().firstValue("location").orElse(null),
                answer.headers().firstValue("apns-unique-id").orElse(null), answer.headers().allValues("apns-emulator-warning"),
                answer.version());
    }
}
