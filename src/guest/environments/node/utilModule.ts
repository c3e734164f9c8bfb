import * as inspectExtracted from 'node-inspect-extracted';
import * as utilPackage from 'util';
import { TextDecoderModel, TextEncoderModel } from './textCoding.ts';

const ANSI_STYLES: Readonly<Record<string, readonly [number, number]>> = {
  bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], inverse: [7, 27], strikethrough: [9, 29],
  red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], gray: [90, 39], grey: [90, 39],
};

/**
 * `util`: the `util` package (promisify, callbackify, inherits, deprecate, types), with Node's own
 * `inspect` and `format` (node-inspect-extracted), so `util.format` prints as `console.log` does.
 */
export function createUtil(): Record<string, unknown> {
  return {
    ...utilPackage,
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
