import { CALLS_SYMBOL } from '../record/callTrace.ts';
import { VALUE_HELPERS } from './valueHelpers.ts';

/**
 * The helpers a generated test file declares, by name, when its tests use them (renderTestFile.ts):
 * loading the program quietly, building objects and errors without their constructors, counting
 * the calls of anonymous functions, replaying mocked children and stand-ins, and the value helpers.
 */
/** The console methods that print: while the program is imported, they write into a buffer. */
const PRINTING = ['log', 'info', 'debug', 'warn', 'error', 'trace', 'dir', 'dirxml', 'table', 'group', 'groupCollapsed', 'assert'];

export const HELPERS = {
  quietly: `/**
 * Runs \`load\` (the imports of the program) with the console writing into a buffer: what the program
 * prints when it loads is not the tests' output. When \`load\` fails, the buffer goes to stderr.
 */
async function quietly(load) {
  const held = [];
  const sink = new Writable({ write(chunk, encoding, done) { held.push(String(chunk)); done(); } });
  const quiet = new Console({ stdout: sink, stderr: sink });
  const printing = ${JSON.stringify(PRINTING)}.filter((name) => typeof console[name] === 'function');
  const mocked = printing.map((name) => mock.method(console, name, quiet[name]));
  try {
    await load();
  } catch (error) {
    process.stderr.write(held.join(''));
    throw error;
  } finally {
    for (const method of mocked) method.mock.restore();
  }
}`,
  importProgram: `/**
 * Imports the program itself, which runs it, as it ran when recorded: with its arguments, and with
 * process.exit held off (it throws instead) until the import is done. When the recorded run failed
 * (\`crashed\`), the same failure here is expected: the module's functions are reachable all the same.
 */
async function importProgram(specifier, argv, crashed) {
  const { argv: saved, exitCode } = process;
  process.argv = [saved[0], fileURLToPath(new URL(specifier, import.meta.url)), ...argv];
  const exit = mock.method(process, 'exit', (code) => {
    throw Object.assign(new Error(\`the program called process.exit(\${code ?? ''}) when imported\`), { programExit: true });
  });
  try {
    await import(specifier);
  } catch (error) {
    if (!crashed && error?.programExit !== true) throw error;
  } finally {
    exit.mock.restore();
    process.argv = saved;
    process.exitCode = exitCode;
  }
}`,
  instance: `/** An object of \`Class\` with these own fields, made without running its constructor. */
function instance(Class, fields) {
  const object = Object.create(Class.prototype);
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  return object;
}`,
  error: `/** An error of \`Class\` with this message, made without running its constructor. */
function error(Class, message) {
  return Reflect.construct(Error, message === undefined ? [] : [message], Class);
}`,
  ran: `/** How often each of these anonymous or nested program functions has run (the test hooks count them), less \`before\`. */
function ran(keys, before = {}) {
  const counts = globalThis[Symbol.for(${JSON.stringify(CALLS_SYMBOL)})] ?? new Map();
  return Object.fromEntries(keys.map((key) => [key, (counts.get(key) ?? 0) - (before[key] ?? 0)]));
}`,
  ...VALUE_HELPERS,
  standIn: `/** Stands in for a program function value the call was given that no test reaches: its calls get the recorded outcomes, in order. */
function standIn(name, outcomes) {
  const fn = mock.fn(() => { throw new Error(\`\${name} was called more often than when it was recorded\`); });
  outcomes.forEach((outcome, index) => fn.mock.mockImplementationOnce(outcome, index));
  return fn;
}`,
  replay: `/** Replaces the program function \`key\` until mocks().delete(key): its calls get the recorded outcomes, in order. */
function replay(key, outcomes) {
  const fn = mock.fn(() => { throw new Error(\`\${key} was called more often than when it was recorded\`); });
  outcomes.forEach((outcome, index) => fn.mock.mockImplementationOnce(outcome, index));
  mocks().set(key, fn);
  return fn;
}`,
} as const;
