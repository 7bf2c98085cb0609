import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { literalRows, newSecret, sha256Hex, wireJson } from '../src/util.js';

/**
 * The hot paths' shortcuts give exactly what the plain calls give: literalRows the objects
 * better-sqlite3 makes (members in column order, every value as read), wireJson the text of
 * JSON.stringify with the wire's null-dropping replacer, sha256Hex a Hash's hex digest; newSecret,
 * drawn from a pool, never hands out the same bytes twice.
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

describe('secrets and hashes', () => {
  it('newSecret gives distinct 256-bit base64url secrets, across refills of its pool', () => {
    const secrets = Array.from({ length: 1000 }, () => newSecret());
    expect(new Set(secrets).size).toBe(1000);
    for (const s of secrets) {
      expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(s, 'base64url')).toHaveLength(32);
    }
  });

  it('sha256Hex is the hex SHA-256 of a string or of bytes', () => {
    for (const v of ['', 'token', 'ünïcode', Buffer.from([0, 1, 2, 255])]) expect(sha256Hex(v)).toBe(createHash('sha256').update(v).digest('hex'));
  });
});
