/**
 * Run by `prepare` (so by `npm install` and `npm ci` in a clone): installs the real npm packages
 * test/recordDifferential.test.ts records (test/fixtures/record-packages) from their lock file, so
 * the tests reach no network. Does nothing when they are installed from the current lock file, and
 * nothing for `npm pack`/`npm publish`, which also run `prepare` (a test may be reading them then).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURE = join(import.meta.dirname, '..', 'test', 'fixtures', 'record-packages');
const lock = join(FIXTURE, 'package-lock.json');
// npm writes this one at the end of an install.
const installed = join(FIXTURE, 'node_modules', '.package-lock.json');

const packing = process.env.npm_command === 'pack' || process.env.npm_command === 'publish';
const current = existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs;
if (existsSync(lock) && !packing && !current) {
  const args = ['ci', '--prefix', FIXTURE, '--ignore-scripts', '--no-audit', '--no-fund'];
  const npm = process.env.npm_execpath;
  // Under npm, its own CLI with this Node; by hand, the npm on PATH.
  if (npm?.endsWith('.js')) execFileSync(process.execPath, [npm, ...args], { stdio: 'inherit' });
  else execFileSync('npm', args, { stdio: 'inherit' });
}
