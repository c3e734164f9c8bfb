import { fileElementId } from '../../../protocol/elementIds.ts';
import type { EnvironmentHost } from '../../../protocol/environment.ts';

/**
 * What a file the snippet reads, and nobody wrote, contains: the value generator's
 * `fs.readFileSync("<absolute path>")` when it gives something usable, else a plain content
 * chosen by the file's extension (JSON that parses, CSV with a header, …).
 */

/** A recording proxy (trace mode's learning run), handed to the snippet in place of the content. */
export interface ProbeContent {
  readonly probe: unknown;
}
export type FileContent = string | Uint8Array | ProbeContent;

const FALLBACK: Readonly<Record<string, string>> = {
  json: '{}\n',
  csv: 'id,name\n1,example\n',
  tsv: 'id\tname\n1\texample\n',
  js: 'module.exports = {};\n',
  cjs: 'module.exports = {};\n',
  mjs: 'export default {};\n',
  html: '<!doctype html>\n<html><head><title>example</title></head><body></body></html>\n',
  xml: '<?xml version="1.0"?>\n<root></root>\n',
  yml: 'name: example\n',
  yaml: 'name: example\n',
  env: 'NODE_ENV=development\n',
  md: '# example\n',
};

/** The extension of a path's last segment, lower-cased, or '' (a dot file such as `.env` counts as its name). */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot < 0) return '';
  return base.slice(dot + 1).toLowerCase();
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The generator's value as file content, or undefined when it is not usable for this file. */
function usable(value: unknown, ext: string): string | Uint8Array | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return ext === 'json' && !parsesAsJson(value) ? undefined : value;
  if (typeof value === 'object' || typeof value === 'number' || typeof value === 'boolean') return `${JSON.stringify(value, null, 2)}\n`;
  return undefined;
}

/** The fallback content of a file, by its extension. */
export function fallbackContent(path: string): string {
  return FALLBACK[extensionOf(path)] ?? 'example\n';
}

/**
 * Asks the value generator for a missing file's content; never throws for a value it cannot use.
 * Undefined when an exploration scenario asks for the file to stay missing (its outcome `error`).
 */
export function contentOf(host: EnvironmentHost, path: string): FileContent | undefined {
  const id = fileElementId(path);
  if (host.outcomeOf(id) === 'error') return undefined;
  const value = host.valueOf(id, `ENOENT: no such file or directory, open '${path}'`);
  if (host.isProbe(value)) return { probe: value };
  return usable(value, extensionOf(path)) ?? fallbackContent(path);
}

/** The value generator's listing of a missing directory: file names, or a probe to learn from. */
export function listingOf(host: EnvironmentHost, path: string): string[] | ProbeContent {
  const value = host.valueOf(`fs.readdirSync(${JSON.stringify(path)})`, `ENOENT: no such file or directory, scandir '${path}'`);
  if (host.isProbe(value)) return { probe: value };
  if (!Array.isArray(value)) return [];
  return value.filter((n): n is string => typeof n === 'string' && n !== '' && !n.includes('/') && n !== '.' && n !== '..');
}
