// `qs` for the url package: Node's url.parse(u, true) and url.format read flat query strings, as querystring does
// (qs would also pull in 50 KB of dependencies and parse `a[b]=1` into nested objects, which Node does not).
import * as querystring from 'querystring-es3';

export const parse = (text: string): Record<string, unknown> => querystring.parse(text);
export const stringify = (query: Record<string, unknown>): string => querystring.stringify(query as Record<string, string>);
