/**
 * How element ids are built where both sides name the same element: the runtime when it records a
 * recording proxy's callbacks, the host when it synthesises their calls and when exploration asks
 * for one to be called with an error.
 */

/** The element id of a missing file's content, by its absolute path: what `fs` asks the value generator for. */
export function fileElementId(path: string): string {
  return `fs.readFileSync(${JSON.stringify(path)})`;
}

/** Whether an element id is a missing file's content (exploration may leave the file missing instead). */
export function isFileElementId(id: string): boolean {
  return id.startsWith('fs.readFileSync("') && id.endsWith('")');
}

/** The element id of what `JSON.parse` gives for the injected text `id`: the text is that value's JSON. */
export function jsonElementId(id: string): string {
  return `JSON.parse(${id})`;
}

/**
 * The element an id names once its leading awaits are one: `await await x` is `await x`. A learnt
 * awaited value is never a promise (src/values/trace/inferCategory.ts), so awaiting it again gives
 * it; a learning run names a recording proxy awaited twice (`result = await conn.execute()` with
 * `conn` awaited before) with both, the definitions learnt from it with one.
 */
export function awaitedOnce(id: string): string {
  let rest = id;
  while (rest.startsWith('await await ')) rest = rest.slice('await '.length);
  return rest;
}

/** The key a recording proxy lists as its own (for…in, Object.keys), beside those the snippet wrote on it; the value learnt has it too. */
export const LISTED_KEY = 'key';

/**
 * The message of the error an injected value fails with in an exploration scenario: the last name in
 * its id (not a callback's or argument's index, nor `anonymous`), then "failed". Written without
 * any built-in method: the runtime calls it after the snippet could have replaced them.
 */
export function failureMessage(id: string): string {
  let last = '';
  for (let i = 0; i < id.length; ) {
    if (!isNameStart(id[i]!)) {
      i++;
      continue;
    }
    let name = '';
    while (i < id.length && (isNameStart(id[i]!) || isDigit(id[i]!))) name += id[i++];
    if (name !== 'anonymous' && !isIndexName(name)) last = name;
  }
  return `${last === '' ? 'operation' : last} failed`;
}

function isNameStart(c: string): boolean {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_' || c === '$';
}
function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}
/** `cb2`, `arg0`: a callback's or an argument's index in an element id. */
function isIndexName(name: string): boolean {
  const prefix = name[0] === 'c' && name[1] === 'b' ? 2 : name[0] === 'a' && name[1] === 'r' && name[2] === 'g' ? 3 : 0;
  if (prefix === 0 || name.length === prefix) return false;
  for (let i = prefix; i < name.length; i++) if (!isDigit(name[i]!)) return false;
  return true;
}

/** The element id of the error an injected function fails with (exploration's `throw` and `reject`): learnt like any value. */
export function thrownElementId(callee: string): string {
  return `${callee}()!`;
}

/** A callback's element id: the callee's, then `#cb`, the argument's index, and the property when the callback is one of an options object's. */
export function callbackElementId(callee: string, index: number, prop: string | undefined): string {
  return `${callee}#cb${index}${prop === undefined ? '' : '.' + prop}`;
}

/** A field of `this` a driven method's callers set on its receiver (driveReceivers): the target's name, then `#this.` and the field. */
export function receiverFieldElementId(target: string, field: string): string {
  return `${target}#this.${field}`;
}

/** An argument of the constructor that made a driven method's receiver (driveReceivers): below the receiver's fields, `res.json#this.constructor#arg0`. */
export function constructorArgumentElementId(target: string, index: number): string {
  return `${receiverFieldElementId(target, 'constructor')}#arg${index}`;
}
