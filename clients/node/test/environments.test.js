'use strict';
// Both environments, as Apple runs them (issue 72): a sandbox and a production endpoint, and a
// token valid at the one its app's build registered with. Apple, "Handling notification responses
// from APNs": 400 BadDeviceToken, "verify … that the token matches the environment".
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const http2 = require('node:http2');
const { withEmulator } = require('..');

const TOPIC = 'com.example.nodeshop';

/** The provider under test: node:http2 to the base URL its configuration names. */
function providerPush(baseUrl, caPath, token, payload) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(baseUrl, { ca: fs.readFileSync(caPath) });
    session.on('error', reject);
    const stream = session.request({ ':method': 'POST', ':path': `/3/device/${token}`, 'apns-topic': TOPIC });
    let headers = {};
    let body = '';
    stream.on('response', (h) => { headers = h; });
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => { body += chunk; });
    stream.on('end', () => { session.close(); resolve({ status: headers[':status'], detail: headers['apns-emulator-detail'], reason: body ? JSON.parse(body).reason : undefined }); });
    stream.on('error', reject);
    stream.end(JSON.stringify(payload));
  });
}

test('each build\'s token is taken at its endpoint; the token check says which', async () => {
  await withEmulator(async (emulator) => {
    const debug = await emulator.registerDevice(TOPIC);
    const testflight = await emulator.registerDevice(TOPIC, undefined, 'production');
    assert.strictEqual(emulator.sandboxUrl, `https://localhost:${emulator.ports.http2}`);
    assert.strictEqual(emulator.productionUrl, `https://localhost:${emulator.ports.productionHttp2}`);
    assert.notStrictEqual(emulator.ports.productionHttp2, emulator.ports.http2);
    assert.strictEqual((await emulator.push(debug, { aps: { alert: 'debug' } }, { topic: TOPIC })).status, 200);
    assert.strictEqual((await emulator.push(testflight, { aps: { alert: 'tf' } }, { topic: TOPIC, environment: 'production' })).status, 200);
    const atProduction = await emulator.notifications({ environment: 'production' });
    assert.deepStrictEqual(atProduction.map((n) => n.token), [testflight]);
    const check = await emulator.checkToken(testflight);
    assert.strictEqual(check.environment, 'production');
    assert.strictEqual(check.endpoint, 'api.push.apple.com');
    await assert.rejects(emulator.push(debug, {}, { environment: 'staging' }), /development \(the sandbox\) or production/);
  });
});

test('a provider configured for production is caught sending a debug build\'s token', async () => {
  await withEmulator(async (emulator) => {
    const debug = await emulator.registerDevice(TOPIC);
    const answer = await providerPush(emulator.productionUrl, emulator.caPath, debug, { aps: { alert: 'hi' } });
    assert.strictEqual(answer.status, 400);
    assert.strictEqual(answer.reason, 'BadDeviceToken');
    assert.match(answer.detail, /issued to a development build/);
    const refused = await emulator.notifications({ status: 'rejected', environment: 'production' });
    assert.deepStrictEqual(refused.map((n) => [n.token, n.reason]), [[debug, 'BadDeviceToken']]);
  });
});
