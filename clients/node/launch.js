'use strict';
// How the emulator runs for a test: the binary as a child process (APNS_EMULATOR_BIN, or
// apns-emulator on PATH), or the container image (APNS_EMULATOR_IMAGE) through podman or
// docker. Either way its standard input is a pipe this process holds (serve
// --exit-on-stdin-close): when the test runner ends, killed or not, the emulator ends too.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');

const PORTS = { http2: 2197, admin: 8197, device: 5223, gateway: 2195, feedback: 2196, channels: 2198, webPush: 2199, productionHttp2: 2297 };

class EmulatorError extends Error {}

function findBinary(given) {
  const binary = given || process.env.APNS_EMULATOR_BIN;
  if (binary) {
    try { fs.accessSync(binary, fs.constants.X_OK); } catch {
      throw new EmulatorError(`APNS_EMULATOR_BIN=${binary} is not an executable file`);
    }
    return binary;
  }
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir || '.', 'apns-emulator');
    try { fs.accessSync(candidate, fs.constants.X_OK); return candidate; } catch { /* next */ }
  }
  throw new EmulatorError('apns-emulator is not on PATH: install it (the README\'s first line), set APNS_EMULATOR_BIN, '
    + 'or set APNS_EMULATOR_IMAGE to run the container image');
}

/** `{auth: 'strict', storagePolicy: 'all', quiet: true}` as serve's flags. */
function serveArguments(options) {
  const args = [];
  for (const [name, value] of Object.entries(options || {})) {
    const flag = '--' + name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()).replace(/_/g, '-');
    if (value === true) args.push(flag);
    else if (value !== false && value !== undefined && value !== null) args.push(flag, String(value));
  }
  return args;
}

/** A seed given as an object is written to a file; a string is a file's path. */
function seedFile(seed, directory) {
  if (seed === undefined || seed === null) return undefined;
  if (typeof seed === 'string') return path.resolve(seed);
  const file = path.join(directory, 'seed.json');
  fs.writeFileSync(file, JSON.stringify(seed, null, 2));
  return file;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const running = new Set();
// A runner that exits normally (or on an uncaught error) stops its emulators at once; one
// that is killed closes their standard input, which stops them.
process.on('exit', () => { for (const child of running) { try { child.kill('SIGKILL'); } catch { /* gone */ } } });

class BinaryLauncher {
  static async start(binary, directory, options, timeoutMs) {
    const launcher = new BinaryLauncher();
    launcher.binary = binary;
    launcher.caPath = path.join(directory, 'certs', 'ca.pem');
    launcher.keysDirectory = path.join(directory, 'keys');
    launcher.logPath = path.join(directory, 'serve.log');
    const portsFile = path.join(directory, 'ports.json');
    const args = ['serve', '--ephemeral', '--exit-on-stdin-close', '--ports-file', portsFile,
      '--certs-dir', path.join(directory, 'certs'), '--keys', launcher.keysDirectory];
    for (const name of Object.keys(PORTS)) args.push(`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-port`, '0');
    const seed = seedFile(options.seed, directory);
    if (seed) args.push('--seed', seed);
    args.push(...serveArguments(options.serve));
    const log = fs.openSync(launcher.logPath, 'w');
    launcher.child = spawn(binary, args, { stdio: ['pipe', log, log] });
    fs.closeSync(log);
    running.add(launcher.child);
    launcher.exited = new Promise((resolve) => launcher.child.on('exit', (code, signal) => {
      running.delete(launcher.child);
      resolve({ code, signal });
    }));
    launcher.child.on('error', () => {});
    launcher.child.stdin.on('error', () => {});
    const deadline = Date.now() + timeoutMs;
    while (!fs.existsSync(portsFile)) {
      if (launcher.child.exitCode !== null || launcher.child.signalCode !== null) {
        throw new EmulatorError(`apns-emulator exited (${launcher.child.exitCode ?? launcher.child.signalCode}) before listening:\n${launcher.log()}`);
      }
      if (Date.now() > deadline) {
        await launcher.stop();
        throw new EmulatorError(`apns-emulator did not listen within ${timeoutMs} ms:\n${launcher.log()}`);
      }
      await sleep(20);
    }
    const found = JSON.parse(fs.readFileSync(portsFile, 'utf8'));
    launcher.host = found.host;
    launcher.ports = Object.fromEntries(Object.keys(PORTS).map((name) => [name, found[name]]));
    // The admin token: the one given (serve: {adminToken}), or the one serve made beyond loopback.
    launcher.adminToken = found.adminToken || undefined;
    launcher.pid = launcher.child.pid;
    return launcher;
  }

  log() {
    try { return fs.readFileSync(this.logPath, 'utf8'); } catch { return ''; }
  }

  /** Another apns-emulator command (keys create) beside the server. */
  command(args) {
    return spawnSync(this.binary, args, { encoding: 'utf8' });
  }

  fetch(file) { return file; }

  async stop(timeoutMs = 10000) {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

class ContainerLauncher {
  static async start(image, directory, options, timeoutMs) {
    const cli = process.env.APNS_EMULATOR_CONTAINER_CLI || ['podman', 'docker'].find((name) =>
      spawnSync(name, ['--version']).status === 0);
    if (!cli) throw new EmulatorError(`APNS_EMULATOR_IMAGE=${image} needs podman or docker on PATH (or APNS_EMULATOR_CONTAINER_CLI)`);
    const launcher = new ContainerLauncher();
    Object.assign(launcher, { cli, binary: null, host: '127.0.0.1', keysDirectory: '/data/keys',
      caPath: path.join(directory, 'ca.pem'), logPath: path.join(directory, 'serve.log') });
    launcher.name = `apns-emulator-${process.pid}-${Date.now()}`;
    const args = ['run', '-i', '--rm', '--name', launcher.name];
    for (const port of Object.values(PORTS)) args.push('-p', `127.0.0.1::${port}`);
    // A copy anyone may read: the image runs as an ordinary user, and a seed may be private to this one.
    const given = seedFile(options.seed, directory);
    const seed = given && path.join(directory, 'seed-for-container');
    if (seed) { fs.copyFileSync(given, seed); fs.chmodSync(seed, 0o644); args.push('-v', `${seed}:/seed/seed.json:ro`); }
    // The image listens on every interface, so its admin API asks for a token: the test's own
    // (serve: {adminToken}), else one made here, given through the environment.
    const serve = { ...(options.serve || {}) };
    launcher.adminToken = serve.adminToken || crypto.randomBytes(32).toString('base64url');
    delete serve.adminToken;
    args.push('-e', 'APNS_EMULATOR_ADMIN_TOKEN');
    args.push(image, 'serve', '--ephemeral', '--exit-on-stdin-close', '--keys', launcher.keysDirectory);
    if (seed) args.push('--seed', '/seed/seed.json');
    args.push(...serveArguments(serve));
    const log = fs.openSync(launcher.logPath, 'w');
    const env = { ...process.env, APNS_EMULATOR_ADMIN_TOKEN: launcher.adminToken };
    launcher.child = spawn(cli, args, { stdio: ['pipe', log, log], env });
    fs.closeSync(log);
    running.add(launcher.child);
    launcher.exited = new Promise((resolve) => launcher.child.on('exit', (code) => { running.delete(launcher.child); resolve(code); }));
    launcher.child.stdin.on('error', () => {});
    // The container's client process: it ends when the container does.
    launcher.pid = launcher.child.pid;
    try {
      await launcher.waitReady(timeoutMs);
    } catch (error) {
      await launcher.stop();
      throw error;
    }
    return launcher;
  }

  async waitReady(timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new EmulatorError(`the container ended before listening:\n${this.log()}`);
      const ports = spawnSync(this.cli, ['port', this.name], { encoding: 'utf8' });
      if (ports.status === 0 && ports.stdout.trim()) {
        const published = {};
        for (const line of ports.stdout.trim().split('\n')) {
          const match = /^(\d+)\/tcp -> .*:(\d+)$/.exec(line.trim());
          if (match) published[Number(match[1])] = Number(match[2]);
        }
        this.ports = Object.fromEntries(Object.entries(PORTS).map(([name, port]) => [name, published[port]]));
        const ca = await getText(`http://${this.host}:${this.ports.admin}/ca.pem`).catch(() => undefined);
        if (ca && ca.status === 200) { fs.writeFileSync(this.caPath, ca.body); return; }
      }
      if (Date.now() > deadline) throw new EmulatorError(`the container did not answer within ${timeoutMs} ms:\n${this.log()}`);
      await sleep(100);
    }
  }

  log() {
    try { return fs.readFileSync(this.logPath, 'utf8'); } catch { return ''; }
  }

  command(args) {
    return spawnSync(this.cli, ['exec', this.name, 'apns-emulator', ...args], { encoding: 'utf8' });
  }

  fetch(file, local) {
    const copied = spawnSync(this.cli, ['cp', `${this.name}:${file}`, local], { encoding: 'utf8' });
    if (copied.status !== 0) throw new EmulatorError(`${this.cli} cp ${file}: ${copied.stderr}`);
    return local;
  }

  async stop(timeoutMs = 10000) {
    if (this.child.exitCode === null) {
      spawnSync(this.cli, ['stop', '-t', String(Math.ceil(timeoutMs / 1000)), this.name]);
      await this.exited;
    }
  }
}

function getText(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { timeout: 2000 }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk) => { body += chunk; });
      answer.on('end', () => resolve({ status: answer.statusCode, body }));
    });
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('timed out')));
  });
}

async function launch(options) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'apns-emulator-node-'));
  const timeout = options.startTimeoutMs || 30000;
  const image = options.image || (options.binary ? undefined : process.env.APNS_EMULATOR_IMAGE);
  const launcher = image
    ? await ContainerLauncher.start(image, directory, options, Math.max(timeout, 60000))
    : await BinaryLauncher.start(findBinary(options.binary), directory, options, timeout);
  return { launcher, directory };
}

module.exports = { launch, EmulatorError, serveArguments, findBinary };
