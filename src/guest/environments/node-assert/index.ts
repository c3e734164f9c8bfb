/**
 * The `node-assert` environment: `assert` and `assert/strict` from the `assert` package (Node's
 * assert for bundlers). An environment of its own because it is large (its own copy of util's
 * inspection); it needs `node` for `process`, which it reads when an assertion fails.
 */
import assert from 'assert';
import type { EnvironmentHost } from '../../../protocol/environment.ts';

export function setup(host: EnvironmentHost): void {
  host.defineModule('assert', assert);
  host.defineModule('assert/strict', assert.strict);
}
