import type { RenderedDefinitions } from './renderedDefinitions.ts';
import { jsString } from '../core/sourceText.ts';

/** Names under which a snippet reads the global object: `global.settings`, `window[name]`. */
const GLOBAL_OBJECT = /\b(?:global|globalThis|window|self|frames|top|parent)\b/;

/** Module-scoped names of the program, never put on the global object. */
const NOT_MIRRORED: ReadonlySet<string> = new Set(['this', 'require', 'module', 'exports', '__dirname', '__filename', 'arguments']);

/**
 * In the sandbox an injected global is a property of the global object; in the program it is a
 * `var` of a CommonJS module, which the global object does not have. When the snippet reads the
 * global object by name (real since an environment gave `global` or `window`), each injected
 * global is made a property of it too: an accessor over the program's variable, so a read or a
 * write through either is seen by the other. One line (no uncovered line of its own); a name the
 * global object will not let go (`undefined`) is left as it is.
 */
export function globalMirror(rendered: Pick<RenderedDefinitions, 'accessors'>, snippetCode: string): string {
  if (!GLOBAL_OBJECT.test(snippetCode)) return '';
  // A global's accessor is its own name; every other element's variable is a generated `_name`.
  const names = rendered.accessors.filter(([id, access]) => id === access && !NOT_MIRRORED.has(id)).map(([id]) => id);
  if (names.length === 0) return '';
  const list = names.map((n) => `[${jsString(n)}, () => ${n}, (v) => { ${n} = v; }]`).join(', ');
  return `// ---- injected globals are the global object's, as in the sandbox ----\n[${list}].forEach(([name, get, set]) => { try { Object.defineProperty(globalThis, name, { get, set, configurable: true, enumerable: false }); } catch {} });\n`;
}
