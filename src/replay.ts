/**
 * `snipexec/replay`: what the tests gen-tests writes import, by this package name, so they hold in
 * any checkout of the project that depends on snipexec (after a move, in CI, after `npm ci`):
 * `registerTestHooks(programDir)` before importing the program, `mocks()` to replace program
 * functions, `reach(module)` for the functions a module does not export (record/testHooks.ts).
 */
export { registerTestHooks, mocks, reach, type MockFn } from './record/testHooks.ts';
