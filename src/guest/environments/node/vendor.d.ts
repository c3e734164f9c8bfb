// Types for the pure-JavaScript packages the node environments bundle that ship none of their own.
declare module 'path-browserify' {
  import path from 'node:path';
  export default path;
}
declare module 'querystring-es3' {
  export * from 'node:querystring';
}
declare module 'node-inspect-extracted' {
  export { inspect, format, formatWithOptions, stripVTControlCharacters } from 'node:util';
}
