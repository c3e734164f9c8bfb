// Types for the pure-JavaScript packages the node environments bundle that ship none of their own.
declare module 'path-browserify' {
  import path from 'node:path';
  export default path;
}
declare module 'node-inspect-extracted' {
  export { inspect, format, formatWithOptions, stripVTControlCharacters } from 'node:util';
}
declare module 'assert/build/internal/util/comparisons.js' {
  export { isDeepStrictEqual } from 'node:util';
}
declare module 'punycode/' {
  const punycode: { toASCII(domain: string): string; toUnicode(domain: string): string };
  export default punycode;
}
