// Loaded before every test file (`--import`): collects garbage once the file's tests are done, so
// isolated-vm's handles are finalised while its environment still exists, not during process exit.
import { enableCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { drainIsolatePool } from '../src/sandbox/isolatePool.ts';

// V8's code cache (and the stripped types) of every module a test file loads, kept between the
// suite's processes as the CLI keeps it (bin/snipexec.cjs): each file compiles only what changed.
// The processes the tests start (programs, emitted programs, generated tests, npm) keep theirs there too.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache');
enableCompileCache();

after(() => {
  // Warm isolates (src/sandbox/isolatePool.ts) kept idle go with the file's tests, not at process exit.
  drainIsolatePool();
  (globalThis as { gc?: () => void }).gc?.();
});
