'use strict';
// Request units through the Node.js driver: RequestCharge per kind of
// operation against the cost model, 0x1001 Overloaded with the service's
// message under --rate-limiting on, the warning when rate limiting is off,
// and server-side retry answering throttled writes late but successfully.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');
const { Emulator } = require('./emulator');

const KS = 'ru_node';
const ROW = 'x'.repeat(900); // with its key, a row just under 1 KB
const OVERLOADED = cassandra.types.responseErrorCodes.overloaded;

function charge(result) {
  const payload = result.info.customPayload;
  assert.ok(payload && payload.RequestCharge, 'RequestCharge missing from the custom payload');
  return payload.RequestCharge.readDoubleBE(0);
}

// As the Azure Java retry policy reads it: split on ',', then '=', key
// RetryAfterMs, Integer.parseInt of the value.
function retryAfterMs(message) {
  for (const part of message.split(',')) {
    const kv = part.split('=');
    if (kv.length === 2 && kv[0].trim() === 'RetryAfterMs') {
      assert.match(kv[1], /^\d+$/);
      return Number(kv[1]);
    }
  }
  throw new Error(`no RetryAfterMs in ${message}`);
}

// An emulator and a client that never retries, so errors reach the test.
async function server(args) {
  const emu = await new Emulator({ args }).start();
  const client = emu.client({
    policies: { retry: new cassandra.policies.retry.FallthroughRetryPolicy() },
  });
  await client.connect();
  await client.execute(`CREATE KEYSPACE ${KS} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`);
  return {
    emu,
    client,
    run: (q, params) => client.execute(q, params, { prepare: true, keyspace: KS }),
    close: async () => {
      await client.shutdown();
      await emu.stop();
    },
  };
}

describe('request charges (rate limiting on)', () => {
  let s;
  before(async () => {
    s = await server(['--rate-limiting', 'on']);
    await s.client.execute(`CREATE TABLE ${KS}.kv (k int, c int, v text, PRIMARY KEY (k, c)) WITH cosmosdb_provisioned_throughput = 20000`);
  });
  after(async () => s.close());

  it('prices reads, writes, overwrites, LWTs, batches and scans as the model does', async () => {
    const insert = `INSERT INTO ${KS}.kv (k, c, v) VALUES (?, ?, ?)`;
    assert.equal(charge(await s.run(insert, [1, 1, ROW])), 5.5);
    assert.equal(charge(await s.run(insert, [1, 1, ROW])), 11);
    assert.equal(charge(await s.run(`SELECT * FROM ${KS}.kv WHERE k = ? AND c = ?`, [1, 1])), 1);
    const lwt = await s.run(`INSERT INTO ${KS}.kv (k, c, v) VALUES (?, ?, ?) IF NOT EXISTS`, [2, 1, ROW]);
    assert.equal(lwt.first()['[applied]'], true);
    assert.equal(charge(lwt), 2 + 1 + 5.5);
    const batch = await s.client.batch([3, 4, 5].map((k) => ({ query: insert, params: [k, 1, ROW] })),
      { prepare: true, logged: false });
    assert.equal(charge(batch), 3 * 5.5);
    const partition = charge(await s.run(`SELECT * FROM ${KS}.kv WHERE k = ?`, [3]));
    const scan = charge(await s.run(`SELECT * FROM ${KS}.kv`));
    assert.ok(scan >= partition + 2 * 2.5, `scan ${scan} vs partition ${partition}`);
  });

  it('throttles a 400 RU/s table with the service message', async () => {
    await s.client.execute(`CREATE TABLE ${KS}.t400 (k uuid PRIMARY KEY, v text) WITH cosmosdb_provisioned_throughput = 400`);
    const insert = `INSERT INTO ${KS}.t400 (k, v) VALUES (?, ?)`;
    const errors = [];
    let ok = 0;
    const deadline = Date.now() + 1000;
    const worker = async () => {
      while (Date.now() < deadline) {
        try {
          await s.run(insert, [cassandra.types.Uuid.random(), ROW]);
          ok++;
        } catch (e) {
          errors.push(e);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    assert.ok(ok > 0);
    assert.ok(errors.length > 0, 'nothing was throttled');
    for (const e of errors.slice(0, 50)) {
      assert.equal(e.code, OVERLOADED, e.message);
      assert.match(e.message, /^Request rate is large: ActivityID=[0-9a-f-]{36}, RetryAfterMs=\d+, /);
      const ms = retryAfterMs(e.message);
      assert.ok(ms >= 1 && ms <= 1000, `RetryAfterMs=${ms}`);
    }
  });
});

describe('rate limiting off', () => {
  it('lets an over-budget request through with a warning', async () => {
    const s = await server([]);
    try {
      await s.client.execute(`CREATE TABLE ${KS}.w (k int PRIMARY KEY, v text)`);
      let warned = null;
      for (let k = 0; k < 300 && !warned; k++) {
        const rs = await s.run(`INSERT INTO ${KS}.w (k, v) VALUES (?, ?)`, [k, ROW]);
        if (rs.info.warnings && rs.info.warnings.length > 0) {
          warned = { k, warnings: rs.info.warnings, ru: charge(rs) };
        }
      }
      assert.ok(warned, 'no response carried the would-throttle warning');
      assert.ok(warned.k > 50);
      assert.ok(warned.warnings.some((w) => w.includes('would have throttled')), warned.warnings.join());
      assert.equal(warned.ru, 5.5);
    } finally {
      await s.close();
    }
  });
});

describe('server-side retry', () => {
  it('answers throttled writes late but successfully', async () => {
    const s = await server(['--rate-limiting', 'on', '--server-side-retry', '--server-side-retry-ms', '3000']);
    try {
      await s.client.execute(`CREATE TABLE ${KS}.ssr (k int PRIMARY KEY, v text) WITH cosmosdb_provisioned_throughput = 400`);
      const insert = `INSERT INTO ${KS}.ssr (k, v) VALUES (?, ?)`;
      await s.run(insert, [0, ROW]); // prepared once, before the burst
      const start = Date.now();
      const results = await Promise.all(Array.from({ length: 90 }, (_, k) => s.run(insert, [k + 1, ROW])));
      const elapsed = Date.now() - start;
      assert.equal(results.length, 90);
      assert.ok(elapsed > 150, `answered in ${elapsed} ms: nothing was held`);
      const count = await s.client.execute(`SELECT count(*) FROM ${KS}.ssr`);
      assert.equal(count.first().count.toNumber(), 91);
    } finally {
      await s.close();
    }
  });
});
