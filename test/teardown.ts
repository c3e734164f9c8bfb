// Loaded before every test file (`--import`): collects garbage once the file's tests are done, so
// isolated-vm's handles are finalised while its environment still exists, not during process exit.
import { after } from 'node:test';
import { drainIsolatePool } from '../src/sandbox/isolatePool.ts';

after(() => {
  // Warm isolates (src/sandbox/isolatePool.ts) kept idle go with the file's tests, not at process exit.
  drainIsolatePool();
  (globalThis as { gc?: () => void }).gc?.();
});
