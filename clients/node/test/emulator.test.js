'use strict';
// The fixture as a Node provider's test uses it: node:test, the provider's own node:http2 client,
// assertions on what the phone shows and what APNs refused. Rules cited from Apple's
// "Handling notification responses from APNs" (statuses and reasons) and "Establishing a
// token-based connection to APNs" (ES256 provider tokens).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const http2 = require('node:http2');
const crypto = require('node:crypto');
const { withEmulator, startEmulator, generateVapidKeys } = require('..');

const TOPIC = 'com.example.nodeshop';

/** A push as a Node provider writes it with node:http2: POST /3/device/<token>, apns-* headers. */
function providerPush(emulator, token, payload, headers = {}) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://localhost:${emulator.ports.http2}`, { ca: fs.readFileSync(emulator.caPath) });
    session.on('error', reject);
    const stream = session.request({ ':method': 'POST', ':path': `/3/device/${token}`, 'apns-topic': TOPIC,
      'apns-push-type': 'alert', ...headers });
    let status;
    let apnsId;
    let body = '';
    stream.on('response', (h) => { status = h[':status']; apnsId = h['apns-id']; });
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => { body += chunk; });
    stream.on('end', () => { session.close(); resolve({ status, apnsId, reason: body ? JSON.parse(body).reason : undefined }); });
    stream.on('error', reject);
    stream.end(JSON.stringify(payload));
  });
}

/** An ES256 provider token (JWT) signed with a .p8 key, as Apple describes. */
function providerToken(key, issuedAt = Math.floor(Date.now() / 1000)) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${encode({ alg: 'ES256', kid: key.keyId })}.${encode({ iss: key.teamId, iat: issuedAt })}`;
  const signature = crypto.sign('sha256', Buffer.from(signed), { key: key.p8, dsaEncoding: 'ieee-p1363' });
  return `${signed}.${signature.toString('base64url')}`;
}

test('a push from node:http2 reaches the phone, shown as iOS shows it; refusals carry APNs\' reasons', async () => {
  await withEmulator(async (emulator) => {
    const token = await emulator.registerDevice(TOPIC);
    await emulator.device(token).setApp({ authorization: { status: 'authorized', alert: true, sound: true, badge: true } });
    const sent = await providerPush(emulator, token, { aps: { alert: { title: 'Shipped', body: 'Order 42 is on its way' }, badge: 1 } });
    assert.strictEqual(sent.status, 200);
    assert.match(sent.apnsId, /^[0-9a-f-]{36}$/);
    const seen = await emulator.waitFor({ token, topic: TOPIC });
    assert.strictEqual(seen.apnsId, sent.apnsId);
    const [shown] = await emulator.device(token).delivered();
    assert.strictEqual(shown.presentation.title, 'Shipped');
    assert.strictEqual(shown.presentation.body, 'Order 42 is on its way');
    assert.strictEqual(shown.presentation.shown, true);

    // 400 BadDeviceToken: "The specified device token is invalid."
    const bad = await providerPush(emulator, 'abc', { aps: { alert: 'x' } });
    assert.deepStrictEqual([bad.status, bad.reason], [400, 'BadDeviceToken']);
    // 413 PayloadTooLarge: above 4096 bytes for an alert.
    const large = await providerPush(emulator, token, { aps: { alert: 'x'.repeat(5000) } });
    assert.deepStrictEqual([large.status, large.reason], [413, 'PayloadTooLarge']);
    const refused = await emulator.notifications({ token, status: 'rejected' });
    assert.ok(refused.some((n) => n.reason === 'PayloadTooLarge'), JSON.stringify(refused));
  });
});

// Apple Support, "Use a Focus on your iPhone": an app a Focus does not allow is delivered quietly.
test('a Focus holds what it does not allow quietly in Notification Center; ended, alerts interrupt again', async () => {
  await withEmulator(async (emulator) => {
    const token = await emulator.registerDevice(TOPIC);
    const device = emulator.device(token);
    await device.setApp({ authorization: { status: 'authorized', alert: true, sound: true } });
    assert.strictEqual((await device.setFocus('Work')).active, 'Work');
    assert.strictEqual((await device.focus()).apps, 1);
    await providerPush(emulator, token, { aps: { alert: 'Sale', sound: 'default' } });
    const [held] = await device.delivered();
    assert.deepStrictEqual([held.presentation.heldBy, held.presentation.deliveredQuietly], ['focus', true]);
    assert.strictEqual((await device.setFocus(null)).active, null);
    await providerPush(emulator, token, { aps: { alert: 'Hi', sound: 'default' } });
    const shown = (await device.delivered())[1];
    assert.deepStrictEqual([shown.presentation.heldBy, shown.presentation.sound], [null, 'default']);
  });
});

// Apple, UNNotificationServiceExtension: an alert with mutable-content is handed to the app's
// extension, and the content it hands back is shown.
test('a service extension changes what is shown; presentation() waits for it', async () => {
  await withEmulator(async (emulator) => {
    const token = await emulator.registerDevice(TOPIC);
    const device = emulator.device(token);
    await device.setApp({ authorization: { status: 'authorized', alert: true } });
    const app = await device.setServiceExtension({ command: `cat > /dev/null; echo '{"body": "decrypted"}'`, timeout: '5s' });
    assert.strictEqual(app.serviceExtension.timeout, '5s');
    const sent = await emulator.push(token, { aps: { alert: 'sealed', 'mutable-content': 1 } }, { topic: TOPIC, pushType: 'alert' });
    const shown = await device.presentation(sent.uniqueId);
    assert.deepStrictEqual([shown.body, shown.serviceExtension.outcome, shown.serviceExtension.original.body], ['decrypted', 'modified', 'sealed']);
    assert.strictEqual((await device.setServiceExtension()).serviceExtension, null);
  });
});

test('fault rules, the clock and waitFor\'s near misses', async () => {
  await withEmulator(async (emulator) => {
    const token = await emulator.registerDevice(TOPIC);
    await emulator.faults.add({ type: 'respond', reason: 'TooManyRequests' }, { match: { topic: TOPIC }, times: 1 });
    const throttled = await emulator.push(token, { aps: { alert: 'one' } }, { topic: TOPIC, pushType: 'alert' });
    assert.deepStrictEqual([throttled.status, throttled.reason], [429, 'TooManyRequests']);
    const next = await emulator.push(token, { aps: { alert: 'two' } }, { topic: TOPIC, pushType: 'alert' });
    assert.strictEqual(next.status, 200);
    const moved = await emulator.clock.advance('90m');
    assert.strictEqual(moved.offsetMs, 90 * 60 * 1000);
    await assert.rejects(emulator.waitFor({ token, topic: 'com.example.other' }, 300), (error) => {
      assert.ok(error instanceof assert.AssertionError);
      assert.match(error.message, /near misses:\n.*com\.example\.nodeshop/);
      return true;
    });
  });
});

// Apple, "Sending notification requests to APNs": APNs stores only one notification per bundle ID
// while the device is offline; serve's --storage-policy all keeps every one.
async function twoPushesWhileOffline(emulator) {
  const token = await emulator.registerDevice(TOPIC);
  for (const text of ['first', 'second']) {
    assert.strictEqual((await emulator.push(token, { aps: { alert: text } }, { topic: TOPIC, pushType: 'alert' })).status, 200);
  }
  return (await emulator.notifications({ token })).map((n) => n.status).reverse();
}

test('offline, one push is stored per app as APNs stores it; serve: {storagePolicy: \'all\'} keeps every one', async () => {
  await withEmulator(async (emulator) => {
    assert.deepStrictEqual(await twoPushesWhileOffline(emulator), ['replaced', 'queued']);
  });
  await withEmulator({ serve: { storagePolicy: 'all' } }, async (emulator) => {
    assert.deepStrictEqual(await twoPushesWhileOffline(emulator), ['queued', 'queued']);
  });
});

test('--auth strict: a key made by keys.create signs provider tokens; a push without one is refused', async () => {
  await withEmulator({ serve: { auth: 'strict' } }, async (emulator) => {
    const key = emulator.keys.create({ teamId: 'TEAM123456', topics: [TOPIC] });
    const token = await emulator.registerDevice(TOPIC);
    const signed = await providerPush(emulator, token, { aps: { alert: 'hi' } }, { authorization: `bearer ${providerToken(key)}` });
    assert.strictEqual(signed.status, 200);
    const unsigned = await providerPush(emulator, token, { aps: { alert: 'hi' } });
    assert.deepStrictEqual([unsigned.status, unsigned.reason], [403, 'MissingProviderToken']);
  });
});

test('issue 51: beyond loopback the emulator asks for its made admin token; the fixture sends it, a bare request is refused', async () => {
  const http = require('node:http');
  await withEmulator({ serve: { host: '0.0.0.0' } }, async (emulator) => {
    assert.match(emulator.adminToken, /^[A-Za-z0-9_-]{43}$/);
    const token = await emulator.registerDevice(TOPIC);
    assert.strictEqual((await providerPush(emulator, token, { aps: { alert: 'beyond' } })).status, 200);
    assert.strictEqual((await emulator.waitFor({ token })).payload.aps.alert, 'beyond');
    const status = await new Promise((resolve, reject) => {
      http.get(`http://127.0.0.1:${emulator.ports.admin}/api/v1/devices`, (answer) => { answer.resume(); resolve(answer.statusCode); })
        .on('error', reject);
    });
    assert.strictEqual(status, 401);
  });
});

test('a seed starts the world it describes; an export seeds the same world', async () => {
  const device = '7a'.repeat(32);
  const seed = {
    version: 1,
    devices: [{ id: 'iphone-node', power: { lowPowerMode: true }, apps: [{ topic: TOPIC, token: device,
      settings: { authorization: { status: 'authorized', alert: true, sound: false, badge: true }, badge: 2 } }] }],
    faults: [{ match: { topic: 'com.example.flaky' }, action: 'reset' }],
    clock: { offset: '1h' },
  };
  await withEmulator({ seed }, async (emulator) => {
    const app = await emulator.device(device).app();
    assert.deepStrictEqual([app.deviceId, app.badge, app.authorization.sound], ['iphone-node', 2, false]);
    assert.strictEqual((await emulator.device(device).power()).lowPowerMode, true);
    assert.strictEqual((await emulator.clock.now()).offsetMs, 3600 * 1000);
    const world = await emulator.export();
    await withEmulator({ seed: world }, async (again) => {
      assert.deepStrictEqual(await again.device(device).app(), app);
      assert.deepStrictEqual(await again.faults.list(), await emulator.faults.list());
    });
  });
});

test('a failing test gets the emulator\'s log', async () => {
  let pid;
  await assert.rejects(withEmulator(async (emulator) => {
    pid = emulator.pid;
    throw new Error('the test failed');
  }), (error) => {
    assert.match(error.message, /the test failed\n--- apns-emulator log/);
    assert.match(error.message, /HTTP\/2 provider API on/);
    return true;
  });
  assert.strictEqual(running(pid), false, 'stopped after the failure');
});

test('an emulator outlives no runner: killing the test process mid-test stops it', async () => {
  const { spawn } = require('node:child_process');
  const script = `require(${JSON.stringify(require.resolve('..'))}).startEmulator()
    .then((e) => { process.stdout.write(e.pid + ' ' + e.directory + '\\n'); setInterval(() => {}, 1000); })
    .catch((error) => { console.error(error); process.exit(2); });`;
  const runner = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [pid, directory] = await new Promise((resolve, reject) => {
    let out = '';
    runner.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) { const line = out.trim(); const space = line.indexOf(' '); resolve([Number(line.slice(0, space)), line.slice(space + 1)]); }
    });
    runner.on('exit', (code) => reject(new Error(`the runner exited (${code}) before starting the emulator`)));
  });
  try {
    assert.ok(running(pid), `the emulator ${pid} runs`);
    runner.kill('SIGKILL');
    // The emulator reads the end of its standard input and shuts down: within 30 s, or the test fails.
    const deadline = Date.now() + 30_000;
    while (running(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.strictEqual(running(pid), false, `the emulator ${pid} still runs 30 s after its runner was killed`);
  } finally {
    // The killed runner could not remove its emulator's directory: the test does.
    fs.rmSync(directory, { recursive: true, force: true });
  }
});

/** Whether pid is a live process (a zombie no parent reaps has ended). */
function running(pid) {
  let stat;
  try { stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { return false; }
  return stat.slice(stat.lastIndexOf(')') + 1).trim().split(' ')[0] !== 'Z';
}

// Web Push as Apple's push service takes it ("Sending web push notifications in web apps and
// browsers"; RFC 8030, 8291, 8292; WebKit's "Meet Declarative Web Push"): the fixture subscribes a
// web app, the test plays the application server with the fixture's sender, and reads the phone.
test('Web Push: a subscribed Home Screen web app shows a declarative push the server sent; a page in Safari shows what its worker shows', async () => {
  await withEmulator(async (emulator) => {
    const vapid = generateVapidKeys();
    const app = await emulator.subscribeWebApp(vapid.publicKey, { origin: 'https://shop.example' });
    assert.match(app.subscription.endpoint, new RegExp(`^https://${emulator.host}:${emulator.ports.webPush}/push/${app.id}$`));
    assert.strictEqual(Buffer.from(app.subscription.keys.p256dh, 'base64url').length, 65);
    const message = { web_push: 8030, notification: { title: 'Back in stock', navigate: 'https://shop.example/p/1' }, app_badge: 2 };
    // TTL 0, as some libraries default to: the phone is here, so it is shown at once (issue 52).
    const sent = await emulator.sendWebPush(app.subscription, message, { vapid, subject: 'mailto:ops@shop.example', ttl: 0, urgency: 'high' });
    assert.strictEqual(sent.status, 201, sent.text);
    assert.ok(sent.location.endsWith(`/message/${sent.uniqueId}`), sent.location);
    const received = await emulator.webPush(app);
    assert.deepStrictEqual([received.outcome, received.shown, received.title, received.navigate, received.appBadge],
      ['declarative', true, 'Back in stock', 'https://shop.example/p/1', 2]);
    assert.deepStrictEqual(JSON.parse(received.message), message);
    assert.strictEqual(received.vapidSubject, 'mailto:ops@shop.example');
    assert.strictEqual(received.uniqueId, sent.uniqueId);
    const [entry] = await emulator.notifications({ token: app.token });
    assert.strictEqual(entry.status, 'delivered');

    // A page in Safari: its service worker shows the notification (POST .../show).
    const page = await emulator.subscribeWebApp(vapid.publicKey, { origin: 'https://news.example', kind: 'safari' });
    assert.strictEqual((await emulator.sendWebPush(page.subscription, 'breaking', { vapid, subject: 'https://news.example' })).status, 201);
    const waiting = await emulator.webPush(page);
    assert.deepStrictEqual([waiting.outcome, waiting.message, waiting.shown], ['serviceWorker', 'breaking', false]);
    const shown = await emulator.showWebNotification(page, 'Breaking', { body: 'Read it first' });
    assert.deepStrictEqual([shown.presentation.title, shown.presentation.body], ['Breaking', 'Read it first']);
    const center = await emulator.device(page.token).delivered();
    assert.ok(center.some((item) => item.presentation && item.presentation.title === 'Breaking'), JSON.stringify(center));

    // Signed with another key than the subscription's: 403 BadJwtToken, nothing on the phone.
    const stranger = generateVapidKeys();
    const refused = await emulator.sendWebPush(app.subscription, 'x', { vapid: stranger, subject: 'mailto:ops@shop.example' });
    assert.deepStrictEqual([refused.status, refused.reason], [403, 'BadJwtToken']);
    assert.strictEqual((await emulator.webPushes(app)).length, 1);
  });
});

// Apple, "Sending notification requests to APNs": keep connections open across notifications;
// rapid connection and disconnection is treated as a denial-of-service attack.
test('the report card: pushes over one session pass; a connection per push fails, with the evidence', async () => {
  await withEmulator(async (emulator) => {
    const token = await emulator.registerDevice(TOPIC);
    for (let n = 0; n < 6; n += 1) {
      assert.strictEqual((await emulator.push(token, { aps: { alert: `hi ${n}` } }, { topic: TOPIC, pushType: 'alert' })).status, 200);
    }
    const report = await emulator.assertProviderBehaves();
    assert.strictEqual(report.checks.find((c) => c.id === 'connection-reuse').verdict, 'pass');
    await emulator.reset();
    for (let n = 0; n < 6; n += 1) assert.strictEqual((await providerPush(emulator, token, { aps: { alert: `again ${n}` } })).status, 200);
    await assert.rejects(emulator.assertProviderBehaves(), (error) => {
      assert.match(error.message, /connection-reuse: 6 requests over 6 connections/);
      assert.match(error.message, /source: Apple/);
      return true;
    });
    assert.strictEqual((await emulator.assertProviderBehaves({ checks: ['backoff'] })).verdict, 'fail');
  });
});

// The exam (serve --provider-exam) through the fixture's serve options: a provider's 3rd request
// is answered 429 TooManyRequests and journaled as the exam's fault, and the report says so.
test('the exam through serve options: the 3rd request meets a 429, marked as the exam\'s', async () => {
  await withEmulator({ serve: { providerExam: true } }, async (emulator) => {
    const token = await emulator.registerDevice(TOPIC);
    const answers = [];
    for (let n = 0; n < 3; n += 1) {
      answers.push(await emulator.push(token, { aps: { alert: `exam ${n}` } }, { topic: TOPIC, pushType: 'alert' }));
    }
    assert.deepStrictEqual(answers.map((a) => a.status), [200, 200, 429]);
    assert.strictEqual(answers[2].reason, 'TooManyRequests');
    const refused = (await emulator.notifications({ status: 'rejected' }))[0];
    assert.strictEqual(refused.fault && refused.fault.id, 'exam', JSON.stringify(refused));
    const report = await emulator.providerReport();
    assert.strictEqual(report.exam, true);
  });
});
