/**
 * The functions the snippet declares at its top level (src/instrument/entryPoints.ts registers
 * them with the entryRegister hook and marks their entry with entryEnter): environments see them,
 * and those nothing called are called at the end (callUncalled).
 */
import { list } from './ownData.ts';
import type { Dyn } from './primordials.ts';

/** By registration index, the function registered (undefined until its statement ran). */
export const entries = list<Dyn | undefined>();
/** By registration index, whether the function was entered. */
export const entered = list<boolean>();
