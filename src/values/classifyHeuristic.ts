import type { Usage } from '../instrument/usage.ts';
import { platformValue, reveals } from './apiTypes/platformTypes.ts';
import type { TypeClassifier, ValueRequest } from './types.ts';
import type { Category } from '../core/categories.ts';
import { guessedByName } from './nameRules.ts';

/** Ranked categories for an element, from how the syntax uses it and from its name. */
export function rankCategories(usage: Usage, name: string): Category[] {
  const out: Category[] = [];
  const add = (c: Category) => { if (!out.includes(c)) out.push(c); };
  const used = [...(usage.methods ?? []), ...(usage.members ?? [])];
  if (usage.declared?.category) add(usage.declared.category);
  if (usage.constructed) add('class');
  if (usage.called !== undefined) add('function');
  if (usage.awaited || reveals('promise', usage.methods, [])) add('promise');
  if (usage.arrayPattern) add('tuple');
  if (reveals('element', usage.methods, usage.members)) add('element');
  if (reveals('Date', usage.methods, [])) add('Date');
  if (usage.methods?.includes('test') || usage.methods?.includes('exec')) add('RegExp');
  if (reveals('string', usage.methods, [])) add('string');
  if (reveals('array', usage.methods, []) || usage.iterated || usage.indexed === 'number') add('array');
  if (reveals('number', usage.methods, []) || usage.arithmetic) add('number');
  if (usage.methods?.includes('get') && usage.methods.includes('set')) add('Map');
  if (usage.methods?.includes('add') && usage.methods.includes('has')) add('Set');
  for (const c of usage.compared ?? []) if (c.type === 'number' || c.type === 'string' || c.type === 'boolean') add(c.type);
  for (const c of usage.typeofCompared ?? []) if (c === 'number' || c === 'string' || c === 'boolean' || c === 'function') add(c);
  if (usage.instanceOf?.includes('Date')) add('Date');
  if (usage.instanceOf?.includes('Error')) add('Error');
  if (usage.instanceOf?.includes('Array')) add('array');
  if (used.includes('length') && !usage.members?.some((m) => m !== 'length')) add('string');
  if (used.some((m) => m === 'message' || m === 'stack') && !used.some((m) => m !== 'message' && m !== 'stack' && m !== 'code')) add('Error');
  if (used.some((m) => m !== 'length') || usage.objectPattern || usage.assignedMembers) add('object');
  for (const c of guessedByName(name, usage)) add(c);
  if (usage.stringified) add('string');
  if (usage.tested) add('boolean');
  add('object');
  add('function');
  add('string');
  add('number');
  return out;
}


/** The heuristic classifier: syntax and names only, no model. */
export const heuristicClassifier: TypeClassifier = {
  name: 'heuristic',
  async classify(request: ValueRequest): Promise<Category[]> {
    // The top-level `this` is a receiver object whatever its members suggest.
    // What the platform's types give a member or a method's result (`items.length`, `e.preventDefault()`) comes first.
    const platform = platformValue(request.element)?.category;
    const ranked = request.kind === 'receiver' ? (['object', 'Dummy'] as Category[]) : [...(platform ? [platform] : []), ...rankCategories(request.usage, request.name).filter((c) => c !== platform)];
    return ranked.filter((c) => !request.rejected.includes(c));
  },
};
