'use strict';
// A web push as an application server sends one, with Node's standard library only: the message
// encrypted for the subscription (RFC 8291, aes128gcm), signed for the push service with a VAPID
// key (RFC 8292, ES256), POSTed to the subscription's endpoint (RFC 8030 section 5) over HTTPS.
// What web-push libraries do; here so that a Node test can play the server without npm.
const crypto = require('node:crypto');
const https = require('node:https');

/** A new VAPID key pair: `{privateKey}` (a KeyObject) and `{publicKey}` (base64url, 65 bytes uncompressed). */
function generateVapidKeys() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKey, publicKey: rawPublicKey(publicKey).toString('base64url') };
}

/** The 65-byte uncompressed point of an EC public key. */
function rawPublicKey(publicKey) {
  const jwk = publicKey.export({ format: 'jwk' });
  return Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
}

/** HKDF-SHA-256 (RFC 5869) of `length` bytes. */
function hkdf(salt, ikm, info, length) {
  return Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));
}

/**
 * The aes128gcm body of `message` for a subscription's keys (RFC 8291 section 3.4): salt, record
 * size, the sender's public key, then one record, the message followed by the delimiter 0x02.
 */
function encrypt(message, keys) {
  const receiver = Buffer.from(keys.p256dh, 'base64url');
  const authSecret = Buffer.from(keys.auth, 'base64url');
  const sender = crypto.createECDH('prime256v1');
  const senderPublic = sender.generateKeys();
  const shared = sender.computeSecret(receiver);
  const ikm = hkdf(authSecret, shared, Buffer.concat([Buffer.from('WebPush: info\0'), receiver, senderPublic]), 32);
  const salt = crypto.randomBytes(16);
  const key = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const cipher = crypto.createCipheriv('aes-128-gcm', key, nonce);
  const sealed = Buffer.concat([cipher.update(Buffer.concat([Buffer.from(message), Buffer.from([2])])), cipher.final(), cipher.getAuthTag()]);
  const recordSize = Buffer.alloc(4);
  recordSize.writeUInt32BE(4096);
  return Buffer.concat([salt, recordSize, Buffer.from([senderPublic.length]), senderPublic, sealed]);
}

/** `vapid t=<JWT>, k=<public key>` for the endpoint's origin (RFC 8292 section 3). */
function vapidAuthorization(endpoint, vapid, subject) {
  const url = new URL(endpoint);
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { aud: url.origin, exp: Math.floor(Date.now() / 1000) + 12 * 3600, sub: subject };
  const signed = `${encode({ typ: 'JWT', alg: 'ES256' })}.${encode(claims)}`;
  const signature = crypto.sign('sha256', Buffer.from(signed), { key: vapid.privateKey, dsaEncoding: 'ieee-p1363' });
  const publicKey = vapid.publicKey || rawPublicKey(crypto.createPublicKey(vapid.privateKey)).toString('base64url');
  return `vapid t=${signed}.${signature.toString('base64url')}, k=${publicKey}`;
}

/**
 * Sends `message` (a string, Buffer or object, JSON-encoded) to `subscription` (what
 * `PushSubscription.toJSON()` gives: `{endpoint, keys: {p256dh, auth}}`) as an application server
 * does: `{vapid: {privateKey, publicKey}, subject: 'mailto:...', ttl (seconds, default 60),
 * urgency, topic, ca (PEM the endpoint's certificate chains to)}`. Answers the push service's
 * `{status, reason, location, uniqueId, warnings, text}`.
 */
function sendWebPush(subscription, message, options) {
  const { vapid, subject, ttl = 60, urgency, topic, ca } = options;
  if (!vapid || !vapid.privateKey) throw new TypeError('sendWebPush needs options.vapid (generateVapidKeys())');
  if (!subject) throw new TypeError("sendWebPush needs options.subject ('mailto:...' or an https URL, RFC 8292 section 2.1)");
  const text = Buffer.isBuffer(message) || typeof message === 'string' ? message : JSON.stringify(message);
  const body = encrypt(text, subscription.keys);
  const headers = { 'content-encoding': 'aes128gcm', 'content-type': 'application/octet-stream', 'content-length': body.length,
    ttl: String(ttl), authorization: vapidAuthorization(subscription.endpoint, vapid, subject) };
  if (urgency) headers.urgency = urgency;
  if (topic) headers.topic = topic;
  return new Promise((resolve, reject) => {
    const outgoing = https.request(subscription.endpoint, { method: 'POST', headers, ca, agent: false }, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const answered = Buffer.concat(chunks).toString('utf8');
        let reason;
        try { reason = answered ? JSON.parse(answered).reason : undefined; } catch { reason = undefined; }
        const warnings = answer.headers['apns-emulator-warning'];
        resolve({ status: answer.statusCode, reason, location: answer.headers.location, uniqueId: answer.headers['apns-unique-id'],
          warnings: warnings === undefined ? [] : [].concat(warnings).flatMap((w) => w.split(', ')), text: answered });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

module.exports = { generateVapidKeys, sendWebPush, encrypt, vapidAuthorization };
