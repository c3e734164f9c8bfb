// Loaded before every test file (`--import`): collects garbage once the file's tests are done, so
// isolated-vm's handles are finalised while its environment still exists, not during process exit.
import { after } from 'node:test';

after(() => {
  (globalThis as { gc?: () => void }).gc?.();
});
