/**
 * The preload of `snipexec record` (loaded with `--require` before the program; see recordProgram.ts),
 * bundled with what it imports into one CommonJS file (recordPreload.ts): it may use no `import.meta`.
 * Configured through RECORD_ENV, which it removes at once: the program sees the environment it would
 * see under plain `node`, and a child process or worker it starts is not recorded (one stderr line
 * says so: childNotice.ts). Without it, it does nothing.
 */
import { setSourceMapsSupport } from 'node:module';
import { RECORDER_GLOBAL } from './functionIds.ts';
import { instrumentModule } from './instrumentCalls.ts';
import { CallRecorder } from './callRecorder.ts';
import { noteUnrecordedChildren } from './childNotice.ts';
import { endTraceOnExit } from './endTraceOnExit.ts';
import { registerProgramHooks } from './programHooks.ts';
import { RECORD_ENV, type RecordConfig } from './recordConfig.ts';
import { SecretScanner } from './redactEnvValues.ts';
import { REDACTED } from './snapshotValue.ts';
import { TraceWriter } from './traceWriter.ts';

function startRecording(config: RecordConfig): void {
  const scanner = new SecretScanner(process.env, process.argv.slice(2));
  const argv = scanner.redactArgv(process.argv.slice(2), String(REDACTED.value));
  // The trace is written as calls end (traceWriter.ts), and ended however the program ends.
  const writer = new TraceWriter(config.tracePath, { program: config.program, argv }, config.limits);
  const recorder = new CallRecorder((s) => scanner.isSecret(s), writer);
  writer.reachAtEnd = () => recorder.reached();
  Object.defineProperty(globalThis, RECORDER_GLOBAL, { value: recorder, enumerable: false, configurable: false, writable: false });
  // Stack frames and error excerpts of the program's files map back to the original text; files in node_modules keep theirs.
  setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
  registerProgramHooks(config.programDir, (source, module, format, url) => {
    try {
      return instrumentModule(source, module, format, { kind: 'record', define: (fn) => recorder.define(fn) }, { sourceMapFile: url }).code;
    } catch {
      return undefined; // not parseable: Node reports the syntax error as plain `node` would
    }
  });
  noteUnrecordedChildren((line) => process.stderr.write(line));
  process.on('uncaughtExceptionMonitor', (error) => recorder.uncaught(error));
  endTraceOnExit(writer, () => recorder.settle());
}

const raw = process.env[RECORD_ENV];
if (raw !== undefined) {
  delete process.env[RECORD_ENV];
  const config = JSON.parse(raw) as RecordConfig;
  // The program sees the execArgv plain `node` gives it; a child it forks is not recorded.
  const at = process.execArgv.findIndex((a, i) => a === '--require' && process.execArgv[i + 1] === config.preload);
  if (at !== -1) process.execArgv.splice(at, 2);
  startRecording(config);
}
