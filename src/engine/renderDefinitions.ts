import { isValidIdentifier } from '@babel/types';
import { commentText, jsString } from '../core/sourceText.ts';
import { HELPER_NAMES, HELPERS_ONE_LINE } from '../values/dummyTable.ts';
import type { Definition } from './definition.ts';
import type { RenderedDefinitions } from '../emit/renderedDefinitions.ts';

const IDENT = /^[A-Za-z_$][\w$]*$/;
/** A name generated source may use as a variable: ASCII, not a reserved word. */
const isVariableName = (name: string): boolean => IDENT.test(name) && isValidIdentifier(name);

/**
 * Renders definitions as plain JavaScript that runs on its own, without snipexec's runtime. A
 * recording proxy has no source (a value blamed for an error records again first): it is left
 * out, so its element is missing in the run and asked for, and the runtime makes the proxy.
 */
export function renderDefinitions(all: ReadonlyMap<string, Definition>): RenderedDefinitions {
  const defs = new Map([...all].filter(([, d]) => !d.proposal.probe));
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const lines: string[] = [];
  /** The element each line of `lines` defines or attaches. */
  const owners: string[] = [];
  const statements = new Map<string, string>();
  const accessors: [string, string][] = [];
  const done = new Set<string>();
  const children = new Map<string, Definition[]>();
  for (const def of defs.values()) {
    const key = def.kind === 'return' || def.kind === 'part' ? undefined : def.parent;
    if (key !== undefined && key !== '') children.set(key, [...(children.get(key) ?? []), def]);
  }

  const varName = (def: Definition): string => {
    const existing = names.get(def.id);
    if (existing) return existing;
    let base = isGlobal(def) && isVariableName(def.id) ? def.id : `_${readableName(def.id)}`;
    if (!isGlobal(def)) base = base.slice(0, 40);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    names.set(def.id, name);
    return name;
  };

  const expression = (def: Definition): string => {
    let source = fillRefs(def.proposal.source, def.proposal.refs, (ref) => {
      const part = defs.get(ref);
      return part ? (emit(part), varName(part)) : 'undefined';
    });
    const ret = defs.get(`${def.id}()`);
    if (ret && /^(async\s+)?function\b[^{]*\{\s*\}$/.test(source)) {
      emit(ret);
      source = source.replace(/\{\s*\}$/, () => `{ return ${varName(ret)}; }`);
    }
    return source;
  };

  const emit = (def: Definition): void => {
    if (done.has(def.id)) return;
    done.add(def.id);
    const source = expression(def);
    const name = varName(def);
    const onGlobal = isGlobal(def) && !isVariableName(def.id);
    const statement = onGlobal ? `globalThis[${jsString(def.id)}] = ${source};` : `var ${name} = ${source};`;
    lines.push(`${statement} // ${commentText(def.id)}`);
    owners.push(def.id);
    statements.set(def.id, statement);
    accessors.push([def.id, onGlobal ? `globalThis[${jsString(def.id)}]` : name]);
    for (const child of children.get(def.id) ?? []) attach(child, name);
    for (const child of children.get(`new ${def.id}`) ?? []) attach(child, `${name}.prototype`);
  };

  const attach = (child: Definition, target: string): void => {
    if (done.has(child.id)) return;
    emit(child);
    const access = IDENT.test(child.name) ? `${target}.${child.name}` : `${target}[${jsString(child.name)}]`;
    lines.push(`${access} = ${varName(child)};`);
    owners.push(child.id);
  };

  const modules = [...defs.values()].filter((d) => d.kind === 'module');
  // With modules, `require` is the module table; an injected global `require` (a call with a computed
  // name) gets another name, and the table hands it the names it does not hold, as the sandbox does.
  if (modules.length > 0) taken.add('require');
  const ordered = [...defs.values()].sort((a, b) => rank(a) - rank(b));
  for (const def of ordered) if (isGlobal(def) || def.kind === 'module' || def.kind === 'receiver') emit(def);
  for (const def of ordered) emit(def); // anything not reached from a root

  if (modules.length > 0) {
    const table = modules.map((m) => `${jsString(m.name)}: ${varName(m)}`).join(', ');
    const injectedRequire = defs.get('require');
    const otherwise = injectedRequire && isGlobal(injectedRequire)
      ? `return ${varName(injectedRequire)}(id);`
      : `throw Object.assign(new Error("Cannot find module '" + id + "'"), { code: 'MODULE_NOT_FOUND' });`;
    // One line, so the not-found path leaves no uncovered line in the emitted program.
    lines.push(`var require = function require(id) { const modules = { ${table} }; if (id in modules) return modules[id]; ${otherwise} };`);
  }
  const body = lines.join('\n');
  const requireLine = lines.length > owners.length ? lines[lines.length - 1] : undefined;
  const helpers = HELPER_NAMES.some((h) => body.includes(h)) ? `${HELPERS_ONE_LINE}\n` : '';
  const receiverDef = defs.get('this');
  const receiver = receiverDef?.kind === 'receiver' ? varName(receiverDef) : undefined;
  const identifiers = new Set(body.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const guarded = (hook: string): string => {
    if (body === '') return '';
    // The failures are the script's completion value, which the sandbox hands to the runtime: no global
    // names it. With none it is undefined, which the sandbox need not hand over (a hop saved).
    const failures = `${hook}_pf`;
    const guardedLines = owners.map((id, i) => `try { ${lines[i]}\n} catch (e) { ${failures}[${failures}.length] = [${jsString(id)}, e]; }`);
    return `${helpers}{ const ${failures} = [];\n${guardedLines.join('\n')}\n${requireLine ?? ''}\n${failures}.length === 0 ? undefined : ${failures}; }\n`;
  };
  return { source: body === '' ? '' : `${helpers}${body}\n`, statements, accessors, receiver, identifiers, guarded };
}

/** A proposal's source with each `$i` standing for its refs[i] replaced by `valueOf(refs[i])`, in order. */
export function fillRefs(source: string, refs: readonly string[], valueOf: (ref: string) => string): string {
  let out = source;
  refs.forEach((ref, i) => {
    const value = valueOf(ref);
    out = out.replace(new RegExp(`\\$${i}(?![\\w$])`, 'g'), () => value); // a function: `$$` in a name is no pattern
  });
  return out;
}

function isGlobal(def: Definition): boolean {
  return def.kind !== 'part' && def.kind !== 'receiver' && def.kind !== 'return' && def.kind !== 'module' && def.kind !== 'argument' && def.kind !== 'environment' && (def.parent === undefined || def.parent === '');
}

function rank(def: Definition): number {
  return def.kind === 'module' ? 0 : isGlobal(def) || def.kind === 'receiver' ? 1 : 2;
}

/** `require("fs").readFile()` becomes `fs_readFile_result`, `await p` becomes `p_resolved`. */
function readableName(id: string): string {
  let s = id.replace(/require\("([^"]*)"\)/g, '$1');
  let suffix = '';
  while (s.startsWith('await ') || s.startsWith('new ')) {
    suffix = (s.startsWith('await ') ? '_resolved' : '_instance') + suffix;
    s = s.replace(/^(await|new) /, '');
  }
  s = s.replace(/\(\)/g, '_result').replace(/\[(\d+)\]/g, '_$1');
  return (s.replace(/[^\w$]+/g, '_').replace(/^_+|_+$/g, '') || 'value') + suffix;
}
