import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byName, numberByName, stringByName } from '../src/values/nameRules.ts';
import { selected } from './helpers.ts';

/** The name rules (one table module): what a name suggests, and the value a name gets. */
const CATEGORIES: readonly { name: string; categories: readonly string[] }[] = [
  { name: 'isOpen', categories: ['boolean'] },
  { name: 'hasItems', categories: ['boolean'] },
  { name: 'canEdit', categories: ['boolean'] },
  { name: 'shouldRetry', categories: ['boolean'] },
  { name: 'island', categories: [] },
  { name: 'itemCount', categories: ['number'] },
  { name: 'rowIndex', categories: ['number'] },
  { name: 'nameLength', categories: ['number'] },
  { name: 'n', categories: ['number'] },
  { name: 'i', categories: ['number'] },
  { name: 'userId', categories: ['number', 'string'] },
  { name: 'id', categories: ['number', 'string'] },
  { name: 'valid', categories: [] },
  { name: 'url', categories: ['string'] },
  // A status is a number (200), as numberByName gives it, not a plural.
  { name: 'status', categories: ['number'] },
  { name: 'avatarUrl', categories: ['string'] },
  { name: 'email', categories: ['string'] },
  { name: 'date', categories: ['Date'] },
  { name: 'startDate', categories: ['Date', 'string'] },
  { name: 'name', categories: ['string'] },
  { name: 'userName', categories: ['string'] },
  { name: 'pattern', categories: [] },
  { name: 'a.b.userId', categories: ['number', 'string'] },
];

const VALUES: readonly { name: string; kind: 'string' | 'number'; value: string | number | undefined }[] = [
  { name: 'url', kind: 'string', value: 'https://example.com/' },
  { name: 'avatarUrl', kind: 'string', value: 'https://example.com/' },
  { name: 'email', kind: 'string', value: 'user@example.com' },
  { name: 'startDate', kind: 'string', value: '2024-01-01T00:00:00.000Z' },
  { name: 'createdAt', kind: 'string', value: '2024-01-01T00:00:00.000Z' },
  { name: 'format', kind: 'string', value: undefined },
  { name: 'key', kind: 'string', value: undefined },
  { name: 'apiKey', kind: 'string', value: 'example-token' },
  { name: 'port', kind: 'number', value: 3000 },
  // A path's last name decides, in any case: an environment variable's PORT is a port.
  { name: 'process.env.PORT', kind: 'number', value: 3000 },
  { name: 'config.db.host', kind: 'string', value: 'example.com' },
  { name: 'report', kind: 'number', value: undefined },
  { name: 'account', kind: 'number', value: undefined },
  { name: 'itemCount', kind: 'number', value: 3 },
  { name: 'index', kind: 'number', value: 0 },
  // A suffix marks a word of a camelCase or SCREAMING_CASE name, never the end of a plain word.
  { name: 'profile', kind: 'string', value: undefined },
  { name: 'ghost', kind: 'string', value: undefined },
  { name: 'update', kind: 'string', value: undefined },
  { name: 'candidate', kind: 'string', value: undefined },
  { name: 'monkey', kind: 'string', value: undefined },
  { name: 'configFile', kind: 'string', value: '/tmp/example.txt' },
  { name: 'process.env.DB_HOST', kind: 'string', value: 'example.com' },
  { name: 'process.env.API_KEY', kind: 'string', value: 'example-token' },
  { name: 'API_URL', kind: 'string', value: 'https://example.com/' },
  { name: 'userEmail', kind: 'string', value: 'user@example.com' },
];

for (const c of selected(CATEGORIES)) {
  test(`nameRules: ${c.name} suggests ${c.categories.join(', ') || 'nothing'}`, () => {
    assert.deepEqual(byName(c.name), c.categories);
  });
}

for (const c of selected(VALUES)) {
  test(`nameRules: ${c.name} gets ${String(c.value)}`, () => {
    assert.equal(c.kind === 'number' ? numberByName(c.name) : stringByName(c.name), c.value);
  });
}
