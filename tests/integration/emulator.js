'use strict';
// Launcher for the Node.js integration tests: runs the built emulator on a
// free port (--port 0; the port is read from its "listening on" line) with a
// temporary --data-dir and a free admin port (--admin-port 0, unless the test
// gives one: a taken admin port stops the start-up), exports the CA with
// `certs export`, and on stop sends SIGTERM and checks for a clean exit (code
// 0, no sanitizer report).

const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const cassandra = require('cassandra-driver');

const ACCOUNT = 'localhost';
const KEY = 'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';
const REGION = 'South Central US';
const START_TIMEOUT_MS = 60000;
const SANITIZER_MARKS = ['ERROR: AddressSanitizer', 'ERROR: LeakSanitizer', 'runtime error:'];

function binary() {
  const bin = process.env.EMULATOR_BIN;
  if (!bin) {
    throw new Error('set EMULATOR_BIN to the built cosmos-cassandra-emulator');
  }
  return bin;
}

class Emulator {
  constructor({ tls = true, args = [] } = {}) {
    this.tls = tls;
    this.args = args;
    this.host = '127.0.0.1';
    this.log = '';
    this.waiters = [];
  }

  async start() {
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-it-node-'));
    const args = ['--port', '0', '--data-dir', this.dataDir, ...this.args];
    if (!this.args.some((a) => a === '--admin-port' || a.startsWith('--admin-port='))) {
      args.push('--admin-port', '0');
    }
    if (!this.tls) {
      args.push('--no-tls');
    }
    const env = { ASAN_OPTIONS: 'detect_leaks=1', ...process.env };
    this.proc = spawn(binary(), args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => {
      this.exitCode = code;
      this.exitSignal = signal;
      this.notify();
      resolve();
    }));
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk) => {
      this.log += chunk;
      this.notify();
    });
    const m = await this.waitForLog(/listening on (\S+):(\d+) \((TLS|plaintext)\)/, START_TIMEOUT_MS);
    this.port = Number(m[2]);
    await this.waitForLog(/\bready\n/, START_TIMEOUT_MS);
    if (this.tls) {
      this.caPem = execFileSync(binary(), ['certs', 'export', '--data-dir', this.dataDir], { env });
    }
    return this;
  }

  notify() {
    for (const w of this.waiters.splice(0)) {
      w();
    }
  }

  async waitForLog(regex, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = this.log.match(regex);
      if (m) {
        return m;
      }
      if (this.exitCode !== undefined) {
        throw new Error(`emulator exited before logging ${regex}; log:\n${this.log}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for ${regex}; log:\n${this.log}`);
      }
      await new Promise((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => { clearTimeout(t); resolve(); });
      });
    }
  }

  async stop() {
    if (!this.proc) {
      return;
    }
    if (this.exitCode === undefined) {
      this.proc.kill('SIGTERM');
    }
    const timeout = new Promise((_, reject) => setTimeout(
      () => reject(new Error('emulator did not exit within 30 s of SIGTERM')), 30000).unref());
    try {
      await Promise.race([this.exited, timeout]);
    } finally {
      this.proc = null;
      fs.rmSync(this.dataDir, { recursive: true, force: true });
    }
    const bad = SANITIZER_MARKS.filter((m) => this.log.includes(m));
    if (this.exitCode !== 0 || bad.length > 0) {
      throw new Error(`emulator exited ${this.exitCode}/${this.exitSignal}${bad.length ? ' with sanitizer reports' : ''}; log:\n${this.log.slice(-6000)}`);
    }
  }

  // A driver Client: TLS verified against the exported CA, PasswordAuthenticator
  // with the account, local data center = the emulator's region.
  client({ key = KEY, user = ACCOUNT, sslOptions, ...rest } = {}) {
    const options = {
      contactPoints: [this.host],
      protocolOptions: { port: this.port },
      localDataCenter: REGION,
      authProvider: new cassandra.auth.PlainTextAuthProvider(user, key),
      socketOptions: { connectTimeout: 15000, readTimeout: 30000 },
      ...rest,
    };
    if (this.tls) {
      options.sslOptions = sslOptions || { ca: [this.caPem], rejectUnauthorized: true };
    }
    return new cassandra.Client(options);
  }
}

module.exports = { Emulator, ACCOUNT, KEY, REGION };
