import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configJson } from '../src/sandbox/configJson.ts';
import type { RuntimeConfig } from '../src/sandbox/runtimeConfig.ts';

/** The runtime config's JSON (src/sandbox/configJson.ts): serialised once per config object, shared by that config's runs. */
test('config JSON: made once per config object; another object (a scenario\'s) gets its own', () => {
  let reads = 0;
  const config = { get hook() { reads++; return '__h'; }, seed: 1, prefer: { 3: true } } as unknown as RuntimeConfig;
  const first = configJson(config);
  assert.deepEqual(JSON.parse(first), { hook: '__h', seed: 1, prefer: { 3: true } });
  assert.equal(configJson(config), first);
  assert.equal(reads, 1, 'the second run of the same config serialises nothing');
  const scenario = { ...config, prefer: { 3: false } } as RuntimeConfig;
  assert.deepEqual(JSON.parse(configJson(scenario)), { hook: '__h', seed: 1, prefer: { 3: false } });
  assert.deepEqual(JSON.parse(configJson(config)), { hook: '__h', seed: 1, prefer: { 3: true } });
});
