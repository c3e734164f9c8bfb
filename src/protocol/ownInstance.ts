/**
 * An instance of one of the file's own classes, as an edge value's source: the global function the
 * runtime installs (`__snipexec_instance("TextRenderer.prototype.text")`) makes it when the value is
 * evaluated (a drive call's argument, after the module loaded). Named by a drive target of the
 * class (its constructor, or one of its methods), which both versions share: the class itself is
 * a binding of the module's scope (an IIFE's), which no definition evaluated globally can name.
 */
export const OWN_INSTANCE = '__snipexec_instance';

/** The edge source that makes an instance of the class the drive target `target` belongs to; `name`, the class's name in the file (a reproduction finds it by it). */
export function ownInstanceSource(target: string, name: string): string {
  return `${OWN_INSTANCE}(${JSON.stringify(target)}, ${JSON.stringify(name)})`;
}

const SOURCE = /__snipexec_instance\(("(?:[^"\\]|\\.)*"), ("(?:[^"\\]|\\.)*")\)/g;

/** The drive targets and class names the own-instance sources in `text` name (one source, or a rendered program). */
export function ownInstancesIn(text: string): { target: string; name: string }[] {
  return [...text.matchAll(SOURCE)].map((m) => ({ target: JSON.parse(m[1]!) as string, name: JSON.parse(m[2]!) as string }));
}
