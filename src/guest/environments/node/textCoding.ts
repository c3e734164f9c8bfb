import { Buffer } from 'buffer';

/** WHATWG TextEncoder (UTF-8 only, as the standard has it), for an isolate that has none. */
export class TextEncoderModel {
  readonly encoding = 'utf-8';
  encode(input = ''): Uint8Array {
    const bytes = Buffer.from(String(input), 'utf8');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  encodeInto(input: string, dest: Uint8Array): { read: number; written: number } {
    const bytes = this.encode(input);
    const written = Math.min(bytes.length, dest.length);
    dest.set(bytes.subarray(0, written));
    return { read: written === bytes.length ? String(input).length : Buffer.from(bytes.subarray(0, written)).toString('utf8').length, written };
  }
}

/** WHATWG TextDecoder for the encodings `buffer` knows (utf-8, utf-16le, latin1, ascii). */
export class TextDecoderModel {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  constructor(label = 'utf-8', options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    const normal = String(label).toLowerCase().trim();
    const known: Record<string, string> = { 'utf-8': 'utf-8', utf8: 'utf-8', 'unicode-1-1-utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16': 'utf-16le', latin1: 'windows-1252', 'iso-8859-1': 'windows-1252', ascii: 'windows-1252', 'us-ascii': 'windows-1252', 'windows-1252': 'windows-1252' };
    const encoding = known[normal];
    if (!encoding) throw new RangeError(`The "${String(label)}" encoding is not supported`);
    this.encoding = encoding;
    this.fatal = options.fatal === true;
    this.ignoreBOM = options.ignoreBOM === true;
  }
  decode(input?: ArrayBuffer | ArrayBufferView): string {
    if (input === undefined) return '';
    const bytes = ArrayBuffer.isView(input) ? Buffer.from(input.buffer, input.byteOffset, input.byteLength) : Buffer.from(input);
    const text = bytes.toString(this.encoding === 'utf-8' ? 'utf8' : this.encoding === 'utf-16le' ? 'utf16le' : 'latin1');
    if (this.fatal && this.encoding === 'utf-8' && text.includes('\ufffd') && !Buffer.from(text, 'utf8').equals(bytes)) throw new TypeError('The encoded data was not valid for encoding utf-8');
    return !this.ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}
