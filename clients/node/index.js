'use strict';
// apns-emulator for Node tests: one `apns-emulator serve --ephemeral` on free ports per
// startEmulator(), pushed to over HTTP/2 and TLS as a provider does (node:http2), read and
// steered through its admin API (node:http). Node's standard library only.
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const http2 = require('node:http2');
const { AssertionError } = require('node:assert');
const { launch, EmulatorError, serveArguments, findBinary } = require('./launch');
const { generateVapidKeys, sendWebPush } = require('./webpush');

class Emulator {
  constructor(launcher, directory) {
    this._launcher = launcher;
    this.directory = directory;
    this.host = launcher.host;
    this.ports = launcher.ports;
    /** The admin token the admin API asks for (undefined when none): sent with every admin request. */
    this.adminToken = launcher.adminToken;
    this.caPath = launcher.caPath;
    this.keysDirectory = launcher.keysDirectory;
    this.pid = launcher.pid;
    this.faults = new Faults(this);
    this.clock = new Clock(this);
    this.keys = new Keys(this);
    this._sessions = new Map();
  }

  /** The provider API's base URL, the sandbox's (the server certificate names localhost). */
  get url() { return `https://localhost:${this.ports.http2}`; }

  /** The sandbox endpoint (Apple: api.sandbox.push.apple.com), where a development setting points. */
  get sandboxUrl() { return this.url; }

  /** The production endpoint (Apple: api.push.apple.com), where a production setting points. */
  get productionUrl() { return `https://localhost:${this.ports.productionHttp2 ?? this.ports.http2}`; }

  /** The base URL of `development` (or `sandbox`) or `production`. */
  urlFor(environment) { return environmentOf(environment) === 'production' ? this.productionUrl : this.sandboxUrl; }

  /** Everything the emulator printed so far. */
  log() { return this._launcher.log(); }

  /**
   * A push over HTTP/2 and TLS, as a provider sends one: APNs' answer
   * `{status, reason, apnsId, uniqueId, detail, warnings}`. `options.environment` is the endpoint,
   * `development` (the sandbox, the default) or `production`: a token of the other environment's
   * build is 400 BadDeviceToken, as at Apple.
   */
  async push(token, payload, options = {}) {
    const session = await this._provider(this.urlFor(options.environment ?? 'development'));
    const headers = { ':method': 'POST', ':path': `/3/device/${token}` };
    const names = { topic: 'apns-topic', pushType: 'apns-push-type', priority: 'apns-priority', expiration: 'apns-expiration',
      collapseId: 'apns-collapse-id', apnsId: 'apns-id', authorization: 'authorization' };
    for (const [option, header] of Object.entries(names)) {
      if (options[option] !== undefined) headers[header] = String(options[option]);
    }
    Object.assign(headers, options.headers || {});
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
    return new Promise((resolve, reject) => {
      const stream = session.request(headers);
      let answer = {};
      const chunks = [];
      stream.on('response', (h) => { answer = h; });
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let reason;
        try { reason = text ? JSON.parse(text).reason : undefined; } catch { reason = undefined; }
        const warnings = answer['apns-emulator-warning'];
        resolve({ status: answer[':status'], reason, apnsId: answer['apns-id'], uniqueId: answer['apns-unique-id'],
          detail: answer['apns-emulator-detail'], warnings: warnings === undefined ? [] : [].concat(warnings).flatMap((w) => w.split(', ')) });
      });
      stream.end(body);
    });
  }

  _provider(url) {
    const open = this._sessions.get(url);
    if (open && !open.closed && !open.destroyed) return Promise.resolve(open);
    return new Promise((resolve, reject) => {
      const session = http2.connect(url, { ca: fs.readFileSync(this.caPath) });
      session.once('connect', () => { this._sessions.set(url, session); resolve(session); });
      session.once('error', reject);
    });
  }

  /**
   * A token issued for `topic` (or `token` made valid), as a device registering gets;
   * `environment` is the app build's: `development` (a debug build, the default) or `production`
   * (TestFlight, the App Store), whose endpoint alone takes the token.
   */
  async registerDevice(topic, token, environment) {
    const body = { topic };
    if (token) body.token = token;
    if (environment !== undefined) body.environment = environmentOf(environment);
    const answer = await this.admin('POST', '/api/v1/devices', body, 201);
    return answer.token;
  }

  /**
   * The Push Notifications Console's token validation: `{known, environment, endpoint, topic,
   * deviceId, registered, registeredAt, unregisteredAt, queued, verdict}`.
   */
  checkToken(token) { return this.admin('GET', `/api/v1/tokens/${token}`); }

  /** The phone behind a token: its app, Notification Center, Live Activities, power. */
  device(token) { return new Device(this, token); }

  /** The journal, newest first: `{token, topic, status, pushType, limit}`. */
  async notifications(filter = {}) {
    const { limit = 100, ...rest } = filter;
    return (await this.admin('GET', '/api/v1/notifications' + query({ ...filters(rest), limit }))).items;
  }

  /**
   * The first notification matching `filter` ({token, topic, status, pushType}), waiting up to
   * `timeoutMs`; rejects with an AssertionError listing the near misses (what arrived instead, and
   * why each did not match).
   */
  async waitFor(filter = {}, timeoutMs = 5000) {
    const wanted = filters(filter);
    const answer = await request(this._admin(), 'GET', '/api/v1/notifications/wait' + query({ ...wanted, timeout: `${timeoutMs}ms` }));
    if (answer.status === 200) return answer.json;
    if (answer.status === 408) {
      const misses = (answer.json.nearMisses || []).map((miss) => `  ${miss.id}: ${miss.status} to ${miss.topic} / `
        + `${(miss.token || '?').slice(0, 12)}: ${(miss.failed || []).join('; ')}`);
      const described = Object.entries(wanted).map(([k, v]) => `${k}=${v}`).join(', ') || 'anything';
      throw new AssertionError({ message: `no notification with ${described} within ${timeoutMs} ms: ${answer.json.error}`
        + (misses.length ? `\nnear misses:\n${misses.join('\n')}` : '') });
    }
    throw new EmulatorError(`wait: ${answer.status} ${answer.text}`);
  }

  /**
   * A Home Screen web app (or, with `kind: 'safari'`, a page in Safari) subscribing with your
   * application server's VAPID public key (base64url), as `PushManager.subscribe` does; on the
   * device of `token` (a new one when omitted). Its `subscription` is what the page would send your
   * server (`PushSubscription.toJSON()`): give it to your Web Push code unchanged, trusting `caPath`.
   */
  async subscribeWebApp(applicationServerKey, { origin = 'https://app.example', kind = 'homeScreen', permission = 'granted', token } = {}) {
    const host = token || await this.registerDevice('com.example.browser');
    const made = await this.admin('POST', `/api/v1/devices/${host}/web-apps`, { origin, kind, permission, applicationServerKey }, 201);
    // The endpoint as this machine reaches the service (a container's port is published elsewhere).
    const endpoint = new URL(made.subscription.endpoint);
    made.subscription.endpoint = `https://${this.host}:${this.ports.webPush}${endpoint.pathname}`;
    return { id: made.id, origin: made.origin, kind: made.kind, subscription: made.subscription, token: made.token,
      hostToken: made.hostToken, raw: made };
  }

  /**
   * Sends `message` to a subscription as an application server does (RFC 8291 encryption, a VAPID
   * JWT for the endpoint's origin): `{vapid, subject, ttl, urgency, topic}`. APNs' Web Push answer
   * `{status, reason, location, uniqueId, warnings}` (201 when accepted).
   */
  sendWebPush(subscription, message, options) { return sendWebPush(subscription, message, { ca: fs.readFileSync(this.caPath), ...options }); }

  /**
   * The oldest web push `webApp` received that the browser has handled, waiting up to `timeoutMs`:
   * `{uniqueId, outcome, message (decrypted), shown, title, body, navigate, appBadge, vapidSubject, urgency, topic, detail}`.
   */
  async webPush(webApp, timeoutMs = 5000) {
    const handled = await this.webPushes(webApp, { timeoutMs, atLeast: 1 });
    return handled[handled.length - 1];
  }

  /** Every web push `webApp` received, newest first, once the browser handled them; waits up to `timeoutMs` for `atLeast`. */
  async webPushes(webApp, { timeoutMs = 0, atLeast = 0 } = {}) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { items } = await this.admin('GET', '/api/v1/notifications' + query({ token: webApp.token, interface: 'webpush', limit: 100 }));
      const handled = items.filter((item) => item.presentation && item.presentation.webPush).map(receivedWebPush);
      if (handled.length >= atLeast) return handled;
      if (Date.now() >= deadline) {
        throw new AssertionError({ message: `${webApp.origin} (${webApp.id}) received ${handled.length} web pushes within ${timeoutMs} ms, `
          + `not ${atLeast}: ${JSON.stringify(items.map((item) => item.reason || item.status))}` });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The web app's service worker calls `showNotification(title, {body})` for the oldest push still waiting for one. */
  showWebNotification(webApp, title, { body, navigate } = {}) {
    const document = { title };
    if (body !== undefined) document.body = body;
    if (navigate !== undefined) document.navigate = navigate;
    return this.admin('POST', `/api/v1/devices/${webApp.hostToken}/web-apps/${webApp.id}/show`, document, 201);
  }

  /** Empties queues, journal and feedback, removes fault rules, returns the clock to real time. */
  async reset(devices = false) { await this.admin('POST', '/api/v1/reset', { devices }); }

  /** The providers the HTTP/2 provider API has seen (a provider-token key, a certificate, a peer), the one seen last first. */
  async providers() { return (await this.admin('GET', '/api/v1/providers')).items; }

  /** A provider's report card (GET /api/v1/providers/<id>/report); without an id, the provider seen last. */
  async providerReport(provider) {
    if (provider === undefined) {
      const seen = await this.providers();
      if (seen.length === 0) throw new EmulatorError('no provider has sent a request to the HTTP/2 provider API yet');
      provider = seen[0].id;
    }
    return this.admin('GET', `/api/v1/providers/${encodeURIComponent(provider)}/report`);
  }

  /**
   * Throws an AssertionError naming each failed check of the provider's report card (of `checks`,
   * when given) with its evidence and source; the report when none failed.
   */
  async assertProviderBehaves({ provider, checks } = {}) {
    const report = await this.providerReport(provider);
    const failed = report.checks.filter((c) => c.verdict === 'fail' && (checks === undefined || checks.includes(c.id)));
    if (failed.length > 0) {
      const lines = failed.map((c) => {
        const ids = c.evidence.apnsIds.slice(0, 5).join(', ');
        return `  ${c.id}: ${c.evidence.summary}${ids ? ` (apns-ids: ${ids})` : ''}\n    source: ${c.source}`;
      });
      throw new AssertionError({ message: `${report.provider.id} fails ${failed.length} check(s) of its report card:\n${lines.join('\n')}` });
    }
    return report;
  }

  /** The world as a seed document (startEmulator({seed}) of it starts the same world). */
  async export() { return this.admin('POST', '/api/v1/export'); }

  /** Stops the emulator (its directory stays until remove()). */
  async stop() {
    for (const session of this._sessions.values()) session.destroy();
    this._sessions.clear();
    await this._launcher.stop();
  }

  remove() { fs.rmSync(this.directory, { recursive: true, force: true }); }

  _admin() { return { host: this.host, port: this.ports.admin, token: this.adminToken }; }

  /** One admin API request; the parsed answer, or an EmulatorError naming what was refused. */
  async admin(method, pathAndQuery, body, expect = 200) {
    const answer = await request(this._admin(), method, pathAndQuery, body);
    if (answer.status !== expect) throw new EmulatorError(`${method} ${pathAndQuery}: ${answer.status} ${answer.text}`);
    return answer.json;
  }
}

class Device {
  constructor(emulator, token) { this.emulator = emulator; this.token = token; }
  app() { return this.emulator.admin('GET', `/api/v1/devices/${this.token}/app`); }
  /** Changes the app as the user would in Settings: authorization, appState, categories... */
  setApp(fields) { return this.emulator.admin('PUT', `/api/v1/devices/${this.token}/app`, fields); }
  /** Notification Center, oldest first. */
  async delivered() { return (await this.emulator.admin('GET', `/api/v1/devices/${this.token}/delivered`)).items; }
  async activities() { return (await this.emulator.admin('GET', `/api/v1/devices/${this.token}/activities`)).items; }
  /** The user taps (`default`), dismisses (`dismiss`) or picks an action. */
  respond(uniqueId, action = 'default', text) {
    return this.emulator.admin('POST', `/api/v1/notifications/${uniqueId}/respond`, text === undefined ? { action } : { action, text });
  }
  power(state) {
    const where = `/api/v1/devices/${this.token}/power`;
    return state ? this.emulator.admin('PUT', where, state) : this.emulator.admin('GET', where);
  }
  /** The device's Focus: `{deviceId, active, allowedApps, timeSensitive, apps}`. */
  async focus() { return this.emulator.admin('GET', `/api/v1/devices/${encodeURIComponent((await this.app()).deviceId)}/focus`); }
  /**
   * Turns a Focus on for the whole device (`active` null ends it): what it does not allow is
   * delivered quietly, held by `focus`; time-sensitive breaks through while `timeSensitive` is on.
   */
  async setFocus(active, { allowedApps = [], timeSensitive = true } = {}) {
    const where = `/api/v1/devices/${encodeURIComponent((await this.app()).deviceId)}/focus`;
    return this.emulator.admin('PUT', where, { active, allowedApps, timeSensitive });
  }
  /**
   * The app's notification service extension, for alerts with `mutable-content: 1`: a `command`
   * run with the content as JSON on standard input (it prints the content to show), or a `url`
   * the content is posted to; `timeout` on the emulator's clock (`30s` by default). Neither
   * removes it. Each presentation says what it did in `serviceExtension`.
   */
  setServiceExtension({ command, url, timeout } = {}) {
    let extension = null;
    if (command !== undefined || url !== undefined) {
      extension = command !== undefined ? { command } : { url };
      if (timeout !== undefined) extension.timeout = timeout;
    }
    return this.setApp({ serviceExtension: extension });
  }
  /** How the phone presented `uniqueId`, once it has (a service extension may take a while). */
  async presentation(uniqueId, { timeout = 10000 } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const item = await this.emulator.admin('GET', `/api/v1/notifications/${uniqueId}`);
      if (item.presentation) return item.presentation;
      if (Date.now() >= deadline) {
        throw new Error(`${uniqueId} was not presented within ${timeout} ms: ${item.phoneOutcome ? item.phoneOutcome.text : 'no outcome'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

class Faults {
  constructor(emulator) { this.emulator = emulator; }
  /** `faults.add({type: 'respond', reason: 'TooManyRequests'}, {match: {topic}, times: 1})` */
  add(action, { match = {}, times, probability } = {}) {
    const body = { action, match };
    if (times !== undefined) body.times = times;
    if (probability !== undefined) body.probability = probability;
    return this.emulator.admin('POST', '/api/v1/faults', body, 201);
  }
  list() { return this.emulator.admin('GET', '/api/v1/faults'); }
  clear() { return this.emulator.admin('DELETE', '/api/v1/faults'); }
}

class Clock {
  constructor(emulator) { this.emulator = emulator; }
  /** Moves the emulator's clock forward (`'90m'`, `'2h'`); what expires is expired at once. */
  advance(by) { return this.emulator.admin('POST', '/api/v1/clock', { advance: by }); }
  now() { return this.emulator.admin('GET', '/api/v1/clock'); }
}

class Keys {
  constructor(emulator) { this.emulator = emulator; }
  /** A new signing key the running emulator trusts at once: `{keyId, teamId, p8Path, p8}`. */
  create({ teamId = 'TEAM123456', keyId, topics, environment } = {}) {
    const launcher = this.emulator._launcher;
    const out = launcher.binary ? path.join(this.emulator.directory, 'creds') : '/data/creds';
    const args = ['keys', 'create', '--team-id', teamId, '--keys', this.emulator.keysDirectory, '--out', out];
    if (keyId) args.push('--key-id', keyId);
    if (topics) args.push('--topics', topics.join(','));
    if (environment) args.push('--environment', environment);
    const run = launcher.command(args);
    if (run.status !== 0) throw new EmulatorError(`keys create: ${run.stderr || run.stdout}`);
    const line = run.stdout.split('\n').find((l) => l.startsWith('private key: '));
    if (!line) throw new EmulatorError(`keys create did not say where the key is: ${run.stdout}`);
    const written = line.split(/\s+/)[2];
    const name = path.basename(written);
    const local = launcher.fetch(written, path.join(this.emulator.directory, name));
    return { keyId: name.slice('AuthKey_'.length, -'.p8'.length), teamId, p8Path: path.resolve(local), p8: fs.readFileSync(local, 'utf8') };
  }
}

/** One journal item as the emulated browser handled it. */
function receivedWebPush(item) {
  const presentation = item.presentation || {};
  const web = presentation.webPush || {};
  return { uniqueId: item.uniqueId || item.id, outcome: web.outcome, message: web.message, shown: Boolean(presentation.shown),
    title: presentation.title, body: presentation.body, navigate: web.navigate, appBadge: web.appBadge,
    vapidSubject: web.vapidSubject, urgency: web.urgency, topic: web.topic, detail: web.detail, raw: item };
}

/** `development` (or `sandbox`) or `production`; anything else throws naming both. */
function environmentOf(name) {
  const lowered = String(name).toLowerCase();
  if (lowered === 'development' || lowered === 'sandbox') return 'development';
  if (lowered === 'production') return 'production';
  throw new EmulatorError(`environment is development (the sandbox) or production, not ${name}`);
}

function filters(given) {
  const names = { token: 'token', topic: 'topic', status: 'status', pushType: 'pushType', environment: 'environment' };
  const out = {};
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (!(name in names)) throw new EmulatorError(`unknown filter ${name} (token, topic, status, pushType, environment)`);
    out[names[name]] = String(value);
  }
  return out;
}

function query(parameters) {
  const text = new URLSearchParams(parameters).toString();
  return text ? `?${text}` : '';
}

function request({ host, port, token }, method, pathAndQuery, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = data ? { 'content-type': 'application/json', 'content-length': data.length } : {};
    if (token) headers.authorization = `Bearer ${token}`;
    const outgoing = http.request({ host, port, method, path: pathAndQuery, agent: false, headers }, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        resolve({ status: answer.statusCode, text, json });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(data);
  });
}

/**
 * Starts an emulator: `{binary, image, seed (a file's path or a seed object), serve: {auth:
 * 'strict', ...serve's flags}, startTimeoutMs}`. The binary comes from `binary`,
 * APNS_EMULATOR_BIN or PATH; the container image from `image` or APNS_EMULATOR_IMAGE.
 */
async function startEmulator(options = {}) {
  const { launcher, directory } = await launch(options);
  return new Emulator(launcher, directory);
}

/**
 * Runs `body(emulator)` with an emulator started for it and stops it however `body` ends; a
 * failure carries the emulator's log. For node:test, Jest and Mocha alike.
 */
async function withEmulator(options, body) {
  if (typeof options === 'function') { body = options; options = {}; }
  const emulator = await startEmulator(options);
  try {
    return await body(emulator);
  } catch (error) {
    if (error && typeof error === 'object') {
      const log = emulator.log();
      error.emulatorLog = log;
      error.message += `\n--- apns-emulator log (${emulator.directory}/serve.log) ---\n${log.split('\n').slice(-60).join('\n')}`;
    }
    throw error;
  } finally {
    await emulator.stop();
    emulator.remove();
  }
}

module.exports = { startEmulator, withEmulator, Emulator, EmulatorError, serveArguments, findBinary, generateVapidKeys, sendWebPush };
