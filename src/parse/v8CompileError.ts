import ivm from 'isolated-vm';

/** The heap of the isolate that only compiles: a parse tree of the largest input accepted fits. */
const COMPILE_MEMORY_MB = 128;

/**
 * V8's own error for code it cannot compile at all for want of stack (100,000 nested brackets):
 * `RangeError` and its message, as Node reports the same file; undefined when V8 compiles it, or
 * fails for any other reason (TypeScript, JSX and module syntax are not V8's to judge here). The
 * code is compiled, never run, in an isolate of its own, on the thread and stack the snippet
 * would run on: code Node's main thread cannot compile but the sandbox can (1,500 nested `if`s)
 * still runs.
 */
export async function v8CompileError(code: string): Promise<{ readonly type: string; readonly message: string } | undefined> {
  const isolate = new ivm.Isolate({ memoryLimit: COMPILE_MEMORY_MB });
  try {
    // Asynchronous: compiled on the isolate's thread, whose stack is the one the snippet's run has.
    (await isolate.compileScript(code, { filename: 'snippet.js' })).release();
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/ \[<isolated-vm>:\d+:\d+\]$/, '') : '';
    if (error instanceof Error && error.name === 'RangeError' && /call stack size/i.test(message)) return { type: error.name, message };
  } finally {
    isolate.dispose();
  }
  return undefined;
}
