// `qs` for the url package: Node's url.parse(u, true) and url.format read flat query strings, as querystring does
// (qs would also pull in 50 KB of dependencies and parse `a[b]=1` into nested objects, which Node does not).
import { parse as parseQuery, stringify as stringifyQuery } from '../querystringModule.ts';

export const parse = (text: string): Record<string, unknown> => parseQuery(text);
export const stringify = (query: Record<string, unknown>): string => stringifyQuery(query);
