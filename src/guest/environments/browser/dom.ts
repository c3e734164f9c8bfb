/**
 * linkedom, loaded with what it needs in a bare isolate (see prelude.ts): the one import of the
 * DOM library, so every module of the browser environment shares the same classes.
 */
import { restoreGlobals } from './prelude.ts';
import * as linkedom from 'linkedom';

restoreGlobals();

export { linkedom };
