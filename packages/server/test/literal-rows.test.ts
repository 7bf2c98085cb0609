import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { literalRows, wireJson } from '../src/util.js';

/**
 * The hot paths' row and JSON shortcuts give exactly what the plain calls give: literalRows the
 * objects better-sqlite3 makes (members in column order, every value as read), wireJson the text
 * of JSON.stringify with the wire's null-dropping replacer.
 */

describe('literalRows', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, x REAL, s TEXT, b BLOB);
           INSERT INTO t VALUES ('a', 1, 1.5, 'it''s "quoted"', x'00ff'), ('b', NULL, NULL, NULL, NULL);`);
  const sql = `SELECT id, n AS "the n", x, s AS "weird "" name", b, n + 1 AS n, count(*) OVER () AS total FROM t WHERE id >= ? ORDER BY id`;

  it('reads the same objects as better-sqlite3, one and all, in column order', () => {
    const plain = db.prepare(sql);
    const fast = literalRows(db.prepare(sql));
    const all = fast.all('a');
    expect(all).toEqual(plain.all('a'));
    expect(all.map((r) => Object.keys(r as object))).toEqual((plain.all('a') as object[]).map((r) => Object.keys(r)));
    expect(fast.get('b')).toEqual(plain.get('b'));
    expect(fast.get('z')).toBeUndefined();
  });
});

describe('wireJson', () => {
  const replaced = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x === null ? undefined : x));

  it('drops null members at any depth, keeps nulls in arrays, and honours toJSON', () => {
    const values: unknown[] = [
      { a: 1, b: 'x', c: [1, 2, { d: true }] },
      { a: null, b: { c: null, d: [null, 1, { e: null }] } },
      [null, { a: null }, 'x'],
      { when: new Date(0), m: new Map([[1, 2]]) },
      'text',
      42,
      null,
      [],
      {},
    ];
    for (const v of values) expect(wireJson(v)).toBe(replaced(v));
  });
});
