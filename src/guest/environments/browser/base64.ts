/** `atob` and `btoa` as the browser defines them (Latin-1 strings), for an isolate that has neither. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The error a browser raises for bad input: a DOMException named InvalidCharacterError. */
function invalidCharacter(message: string): Error {
  const error = new Error(message);
  error.name = 'InvalidCharacterError';
  return error;
}

/** Decodes base64 to a binary string, as window.atob does. */
export function atob(input: unknown): string {
  let s = String(input).replace(/[\t\n\f\r ]/g, '');
  if (s.length % 4 === 0) s = s.replace(/==?$/, '');
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw invalidCharacter("Failed to execute 'atob' on 'Window': The string to be decoded is not correctly encoded.");
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const c of s) {
    buffer = (buffer << 6) | ALPHABET.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 0xff);
    }
  }
  return out;
}

/** Encodes a binary string to base64, as window.btoa does. */
export function btoa(input: unknown): string {
  const s = String(input);
  let out = '';
  for (let i = 0; i < s.length; i += 3) {
    const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
    if (a > 255 || b > 255 || c > 255) throw invalidCharacter("Failed to execute 'btoa' on 'Window': The string to be encoded contains characters outside of the Latin1 range.");
    const n = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63] + (i + 1 < s.length ? ALPHABET[(n >> 6) & 63] : '=') + (i + 2 < s.length ? ALPHABET[n & 63] : '=');
  }
  return out;
}
