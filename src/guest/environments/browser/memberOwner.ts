/** Where a DOM member is defined: linkedom spreads them over several prototypes (and mixins). */

/** The prototype on `instance`'s chain that owns `key`, and its descriptor. */
export function ownerOf(instance: object, key: string): [object, PropertyDescriptor] | undefined {
  for (let p: object | null = Object.getPrototypeOf(instance); p; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, key);
    if (d) return [p, d];
  }
  return undefined;
}
