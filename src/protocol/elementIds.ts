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

/** The key a recording proxy lists as its own (for…in, Object.keys), beside those the snippet wrote on it; the value learnt has it too. */
export const LISTED_KEY = 'key';

/** A callback's element id: the callee's, then `#cb`, the argument's index, and the property when the callback is one of an options object's. */
export function callbackElementId(callee: string, index: number, prop: string | undefined): string {
  return `${callee}#cb${index}${prop === undefined ? '' : '.' + prop}`;
}
