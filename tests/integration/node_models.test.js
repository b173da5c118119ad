'use strict';
// The data models of the issue through the Node.js driver over TLS: rows
// written with prepared statements and read back row by row (with paging),
// clustering order, LIMIT, ORDER BY, the refused table, and the schema as
// client.metadata shows it.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');
const { Emulator } = require('./emulator');

const { Uuid, LocalDate, BigDecimal } = cassandra.types;
const KS = 'models_node';
const BASE = Date.UTC(2024, 4, 1, 12, 0, 0);
const ts = (minutes) => new Date(BASE + minutes * 60000);
const uuid = (n) => Uuid.fromString(`00000000-0000-0000-0000-${n.toString(16).padStart(12, '0')}`);
const prep = { prepare: true };

const SCHEMA = [
  `CREATE TABLE sensor_data (sensor_id uuid, date date, reading_time timestamp,
     temperature double, humidity double, PRIMARY KEY ((sensor_id, date), reading_time))
     WITH CLUSTERING ORDER BY (reading_time DESC)`,
  `CREATE TABLE user_events (user_id uuid, event_time timestamp, event_type text, payload text,
     PRIMARY KEY (user_id, event_time)) WITH CLUSTERING ORDER BY (event_time DESC)`,
  `CREATE TABLE followers (user_id text, follower_id text, followed_at timestamp,
     PRIMARY KEY (user_id, follower_id))`,
  `CREATE TABLE users (user_id uuid PRIMARY KEY, username text, email text,
     created_at timestamp, tags set<text>, attributes map<text, text>)`,
  `CREATE TABLE user_orders (user_id uuid, orderTimestamp timestamp, order_id uuid,
     total decimal, status text, PRIMARY KEY (user_id, orderTimestamp))
     WITH CLUSTERING ORDER BY (orderTimestamp DESC)`,
  `CREATE TABLE orders_by_id (order_id uuid PRIMARY KEY, user_id uuid,
     orderTimestamp timestamp, total decimal, status text)`,
];

let emu;
let client;

before(async () => {
  emu = await new Emulator().start();
  client = emu.client();
  await client.connect();
  await client.execute(`CREATE KEYSPACE ${KS} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`);
  for (const ddl of SCHEMA) {
    await client.execute(ddl.replace('CREATE TABLE ', `CREATE TABLE ${KS}.`));
  }
});

after(async () => {
  if (client) {
    await client.shutdown();
  }
  await emu.stop();
});

describe('sensor_data', () => {
  const sensor = uuid(0x1000);
  const day = LocalDate.fromString('2024-05-01');
  const N = 30;
  const expected = [];
  for (let i = N - 1; i >= 0; i--) {
    expected.push([sensor.toString(), '2024-05-01', ts(i).getTime(), 20 + i / 4, 40 + i]);
  }
  const asTuple = (r) => [r.sensor_id.toString(), r.date.toString(), r.reading_time.getTime(),
    r.temperature, r.humidity];

  before(async () => {
    for (let i = 0; i < N; i++) {
      await client.execute(`INSERT INTO ${KS}.sensor_data (sensor_id, date, reading_time, temperature, humidity) VALUES (?, ?, ?, ?, ?)`,
        [sensor, day, ts(i), 20 + i / 4, 40 + i], prep);
    }
  });

  it('reads a partition newest first, row by row', async () => {
    const rs = await client.execute(`SELECT * FROM ${KS}.sensor_data WHERE sensor_id = ? AND date = ?`, [sensor, day], prep);
    assert.deepEqual(rs.rows.map(asTuple), expected);
  });

  it('pages with pageState', async () => {
    const q = `SELECT * FROM ${KS}.sensor_data WHERE sensor_id = ? AND date = ?`;
    const got = [];
    let pageState;
    let pages = 0;
    do {
      const rs = await client.execute(q, [sensor, day], { prepare: true, fetchSize: 7, pageState });
      got.push(...rs.rows.map(asTuple));
      pageState = rs.pageState;
      pages++;
    } while (pageState);
    assert.equal(pages, 5);
    assert.deepEqual(got, expected);
  });
});

describe('user_events', () => {
  const user = uuid(0x2000);
  const N = 150;

  before(async () => {
    const queries = [];
    for (let i = 0; i < N; i++) {
      queries.push({
        query: `INSERT INTO ${KS}.user_events (user_id, event_time, event_type, payload) VALUES (?, ?, ?, ?)`,
        params: [user, ts(i), i % 2 ? 'click' : 'view', `{"n": ${i}}`],
      });
    }
    for (let i = 0; i < queries.length; i += 25) {
      await client.batch(queries.slice(i, i + 25), { prepare: true, logged: false });
    }
  });

  it('LIMIT 100 returns the newest 100', async () => {
    const rs = await client.execute(`SELECT * FROM ${KS}.user_events WHERE user_id = ? LIMIT 100`, [user], prep);
    assert.equal(rs.rowLength, 100);
    rs.rows.forEach((row, k) => {
      const i = N - 1 - k;
      assert.deepEqual([row.user_id.toString(), row.event_time.getTime(), row.event_type, row.payload],
        [user.toString(), ts(i).getTime(), i % 2 ? 'click' : 'view', `{"n": ${i}}`]);
    });
  });
});

describe('followers and users', () => {
  it('returns followers in clustering order', async () => {
    const names = ['zoe', 'adam', 'mia', 'bob'];
    for (const [i, n] of names.entries()) {
      await client.execute(`INSERT INTO ${KS}.followers (user_id, follower_id, followed_at) VALUES (?, ?, ?)`,
        ['alice', n, ts(i)], prep);
    }
    const rs = await client.execute(`SELECT follower_id FROM ${KS}.followers WHERE user_id = ?`, ['alice'], prep);
    assert.deepEqual(rs.rows.map((r) => r.follower_id), ['adam', 'bob', 'mia', 'zoe']);
  });

  it('reads users back by key with collections', async () => {
    for (let i = 0; i < 5; i++) {
      await client.execute(`INSERT INTO ${KS}.users (user_id, username, email, created_at, tags, attributes) VALUES (?, ?, ?, ?, ?, ?)`,
        [uuid(0x3000 + i), `user${i}`, `user${i}@example.com`, ts(i), ['a', `user${i}`], { plan: 'free' }], prep);
    }
    for (let i = 0; i < 5; i++) {
      const row = (await client.execute(`SELECT * FROM ${KS}.users WHERE user_id = ?`, [uuid(0x3000 + i)], prep)).first();
      assert.equal(row.username, `user${i}`);
      assert.equal(row.email, `user${i}@example.com`);
      assert.equal(row.created_at.getTime(), ts(i).getTime());
      assert.deepEqual([...row.tags].sort(), ['a', `user${i}`].sort());
      assert.deepEqual(row.attributes, { plan: 'free' });
    }
  });
});

describe('orders', () => {
  const user = uuid(0x4000);
  const orders = [];
  before(async () => {
    for (let i = 0; i < 25; i++) {
      const order = [uuid(0x5000 + i), ts(i), BigDecimal.fromString(`${i}.${String(i).padStart(2, '0')}`),
        i % 3 ? 'shipped' : 'open'];
      orders.push(order);
      await client.execute(`INSERT INTO ${KS}.user_orders (user_id, orderTimestamp, order_id, total, status) VALUES (?, ?, ?, ?, ?)`,
        [user, order[1], order[0], order[2], order[3]], prep);
      await client.execute(`INSERT INTO ${KS}.orders_by_id (order_id, user_id, orderTimestamp, total, status) VALUES (?, ?, ?, ?, ?)`,
        [order[0], user, order[1], order[2], order[3]], prep);
    }
  });

  it('ORDER BY orderTimestamp DESC LIMIT 10 is the newest 10', async () => {
    const rs = await client.execute(`SELECT * FROM ${KS}.user_orders WHERE user_id = ? ORDER BY orderTimestamp DESC LIMIT 10`, [user], prep);
    const want = orders.slice().reverse().slice(0, 10)
      .map((o) => [o[0].toString(), o[1].getTime(), o[2].toString(), o[3]]);
    assert.deepEqual(rs.rows.map((r) => [r.order_id.toString(), r.ordertimestamp.getTime(),
      r.total.toString(), r.status]), want);
  });

  it('orders_by_id point lookups', async () => {
    for (const [id, when, total, status] of orders) {
      const row = (await client.execute(`SELECT * FROM ${KS}.orders_by_id WHERE order_id = ?`, [id], prep)).first();
      assert.deepEqual([row.user_id.toString(), row.ordertimestamp.getTime(), row.total.toString(), row.status],
        [user.toString(), when.getTime(), total.toString(), status]);
    }
  });
});

describe('refused table', () => {
  it('a PRIMARY KEY naming a missing column is Invalid and creates nothing', async () => {
    await assert.rejects(
      client.execute(`CREATE TABLE ${KS}.bad_pk (id int, name text, PRIMARY KEY (missing_col))`),
      (err) => {
        assert.equal(err.code, 0x2200);
        assert.match(err.message, /Unknown definition missing_col referenced in PRIMARY KEY/);
        return true;
      });
    assert.equal(await client.metadata.getTable(KS, 'bad_pk'), null);
  });
});

describe('metadata', () => {
  it('lists the keyspace and describes tables, columns and keys', async () => {
    await client.metadata.refreshKeyspace(KS);
    assert.ok(client.metadata.keyspaces[KS], 'keyspace missing from client.metadata');
    const t = await client.metadata.getTable(KS, 'sensor_data');
    assert.deepEqual(t.partitionKeys.map((c) => c.name), ['sensor_id', 'date']);
    assert.deepEqual(t.clusteringKeys.map((c) => c.name), ['reading_time']);
    assert.deepEqual(t.clusteringOrder, ['DESC']);
    assert.deepEqual(t.columns.map((c) => c.name).sort(),
      ['date', 'humidity', 'reading_time', 'sensor_id', 'temperature']);
    const orders = await client.metadata.getTable(KS, 'user_orders');
    assert.deepEqual(orders.partitionKeys.map((c) => c.name), ['user_id']);
    assert.deepEqual(orders.clusteringKeys.map((c) => c.name), ['ordertimestamp']);
    const users = await client.metadata.getTable(KS, 'users');
    assert.deepEqual(users.partitionKeys.map((c) => c.name), ['user_id']);
    assert.deepEqual(users.clusteringKeys, []);
    const tags = users.columnsByName.tags;
    assert.equal(tags.type.code, cassandra.types.dataTypes.set);
  });
});
