import { isDeepStrictEqual } from 'assert/build/internal/util/comparisons.js';
import * as inspectExtracted from 'node-inspect-extracted';
import * as utilPackage from 'util';
import { TextDecoderModel, TextEncoderModel } from './textCoding.ts';

const ANSI_STYLES: Readonly<Record<string, readonly [number, number]>> = {
  bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], inverse: [7, 27], strikethrough: [9, 29],
  red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], gray: [90, 39], grey: [90, 39],
};

/** Node's `util.promisify.custom`: a function's own promise form, as `setTimeout` and `exec` have. */
export const PROMISIFY_CUSTOM: unique symbol = Symbol.for('nodejs.util.promisify.custom') as never;

type Callable = (...args: never[]) => unknown;

/** `util.promisify`: a function's own promise form when it has one (`fn[util.promisify.custom]`, or one in `promiseForms`), else the callback-last wrapper. */
function createPromisify(promiseForms: ReadonlyMap<unknown, Callable>): (original: unknown) => unknown {
  const promisify = (original: unknown): unknown => {
    if (typeof original === 'function') {
      const custom = (original as { [PROMISIFY_CUSTOM]?: unknown })[PROMISIFY_CUSTOM] ?? promiseForms.get(original);
      if (custom !== undefined) {
        if (typeof custom !== 'function') throw Object.assign(new TypeError('The "util.promisify.custom" argument must be of type function'), { code: 'ERR_INVALID_ARG_TYPE' });
        return custom;
      }
    }
    return utilPackage.promisify(original as (...args: unknown[]) => void);
  };
  return Object.assign(promisify, { custom: PROMISIFY_CUSTOM });
}

/**
 * `util`: the `util` package (promisify, callbackify, inherits, deprecate, types), with Node's own
 * `inspect` and `format` (node-inspect-extracted), so `util.format` prints as `console.log` does,
 * and the assert package's `isDeepStrictEqual`. `promiseForms` are the promise forms of functions
 * that are not the environment's own (the runtime's `setTimeout`), for `util.promisify`.
 */
export function createUtil(promiseForms: ReadonlyMap<unknown, Callable>): Record<string, unknown> {
  return {
    ...utilPackage,
    promisify: createPromisify(promiseForms),
    isDeepStrictEqual,
    inspect: inspectExtracted.inspect,
    format: inspectExtracted.format,
    formatWithOptions: inspectExtracted.formatWithOptions,
    stripVTControlCharacters: inspectExtracted.stripVTControlCharacters,
    types: { ...utilPackage.types },
    TextEncoder: TextEncoderModel,
    TextDecoder: TextDecoderModel,
    toUSVString: (s: unknown) => String(s).toWellFormed(),
    styleText(format: string | readonly string[], text: string): string {
      let out = String(text);
      for (const style of typeof format === 'string' ? [format] : format) {
        const codes = ANSI_STYLES[style];
        if (codes) out = `\u001b[${codes[0]}m${out}\u001b[${codes[1]}m`;
      }
      return out;
    },
  };
}
