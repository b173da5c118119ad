'use strict';
// The DataStax Node.js driver (cassandra-driver 4.x) connecting as an
// application would: TLS verified against the exported CA, the
// PasswordAuthenticator, protocol negotiation from the driver's default
// down to v4, RequestCharge on results, consistency levels, failures.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');
const { Emulator, REGION } = require('./emulator');

const { consistencies } = cassandra.types;
let emu;

before(async () => {
  emu = await new Emulator().start();
});

after(async () => {
  await emu.stop();
});

function charge(result) {
  const payload = result.info.customPayload;
  assert.ok(payload && payload.RequestCharge, 'RequestCharge missing from the custom payload');
  assert.equal(payload.RequestCharge.length, 8);
  return payload.RequestCharge.readDoubleBE(0);
}

async function withClient(options, fn) {
  const client = emu.client(options);
  try {
    await client.connect();
    return await fn(client);
  } finally {
    await client.shutdown();
  }
}

describe('connect', () => {
  it('TLS with CA verification and auth, negotiated down to v4', async () => {
    await withClient({}, async (client) => {
      assert.equal(client.controlConnection.protocolVersion, 4);
      const rs = await client.execute("SELECT data_center, release_version FROM system.local WHERE key = 'local'");
      assert.equal(rs.first().data_center, REGION);
      const hosts = client.hosts.values();
      assert.equal(hosts.length, 1);
      assert.equal(hosts[0].datacenter, REGION);
      assert.ok(charge(rs) > 0);
    });
  });

  it('verifies the server name localhost too', async () => {
    await withClient({ sslOptions: { ca: [emu.caPem], rejectUnauthorized: true, servername: 'localhost' } },
      async (client) => {
        await client.execute('SELECT key FROM system.local');
      });
  });

  it('refuses a wrong key with an authentication error', async () => {
    const client = emu.client({ key: 'wrong-key' });
    try {
      await assert.rejects(client.connect(), (err) => {
        assert.equal(err.name, 'NoHostAvailableError');
        const inner = Object.values(err.innerErrors);
        assert.ok(inner.some((e) => e instanceof cassandra.errors.AuthenticationError), String(inner));
        assert.match(String(inner), /Provided username localhost and\/or password are incorrect/);
        return true;
      });
    } finally {
      await client.shutdown();
    }
  });

  it('is rejected by a client that does not trust our CA', async () => {
    const client = emu.client({ sslOptions: { rejectUnauthorized: true } });
    try {
      await assert.rejects(client.connect());
    } finally {
      await client.shutdown();
    }
  });

  it('refuses a plaintext client on the TLS port and carries on', async () => {
    const plain = new cassandra.Client({
      contactPoints: [emu.host], protocolOptions: { port: emu.port }, localDataCenter: REGION,
      authProvider: new cassandra.auth.PlainTextAuthProvider('localhost', 'x'),
      socketOptions: { connectTimeout: 5000 },
    });
    try {
      await assert.rejects(plain.connect());
    } finally {
      await plain.shutdown();
    }
    await emu.waitForLog(/refused plaintext connection from 127\.0\.0\.1:\d+ on the TLS port: use TLS or --no-tls/);
    await withClient({}, (client) => client.execute('SELECT key FROM system.local'));
  });
});

describe('statements', () => {
  it('carries RequestCharge on writes, reads and prepared statements', async () => {
    await withClient({}, async (client) => {
      await client.execute("CREATE KEYSPACE IF NOT EXISTS charge_node WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      await client.execute('CREATE TABLE IF NOT EXISTS charge_node.kv (k int PRIMARY KEY, v text)');
      const w = await client.execute('INSERT INTO charge_node.kv (k, v) VALUES (?, ?)', [1, 'one'], { prepare: true });
      const r = await client.execute('SELECT v FROM charge_node.kv WHERE k = ?', [1], { prepare: true });
      assert.equal(r.first().v, 'one');
      assert.ok(charge(w) > 0);
      assert.ok(charge(r) > 0);
    });
  });

  it('accepts QUORUM and every other consistency level', async () => {
    await withClient({ queryOptions: { consistency: consistencies.quorum } }, async (client) => {
      await client.execute("CREATE KEYSPACE IF NOT EXISTS cl_node WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      await client.execute('CREATE TABLE IF NOT EXISTS cl_node.t (k int PRIMARY KEY, v int)');
      const levels = ['any', 'one', 'two', 'three', 'quorum', 'all', 'localQuorum', 'eachQuorum',
        'serial', 'localSerial', 'localOne'];
      for (const [i, name] of levels.entries()) {
        const consistency = consistencies[name];
        await client.execute('INSERT INTO cl_node.t (k, v) VALUES (?, ?)', [i, i * 10], { prepare: true, consistency });
        const rs = await client.execute('SELECT v FROM cl_node.t WHERE k = ?', [i], { prepare: true, consistency });
        assert.equal(rs.first().v, i * 10, name);
      }
    });
  });
});
