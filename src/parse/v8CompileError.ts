import { Script } from 'node:vm';

/**
 * V8's own error for code it cannot compile at all for want of stack (100,000 nested brackets):
 * `RangeError` and its message, as Node reports the same file; undefined when V8 compiles it, or
 * fails for any other reason (TypeScript, JSX and module syntax are not V8's to judge here).
 * Compiling runs none of the code.
 */
export function v8CompileError(code: string): { readonly type: string; readonly message: string } | undefined {
  try {
    new Script(code, { filename: 'snippet.js' });
  } catch (error) {
    if (error instanceof RangeError) return { type: error.name, message: error.message };
  }
  return undefined;
}
