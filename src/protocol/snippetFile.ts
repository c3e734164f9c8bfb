/**
 * The names of the snippet's code inside the isolate. Imported by both sides; constants only.
 */

/** The script name the snippet's instrumented code is compiled under: V8's stack frames in it name it. */
export const SNIPPET_SCRIPT = 'snipexec:snippet';

/**
 * The snippet's file as the code sees it: `__filename` of the node environment, and the file its
 * stack frames name once mapped to the original code's positions.
 */
export const SNIPPET_PATH = '/app/snippet.js';

/** The generated line of the instrumented script on which the function holding the snippet's top level starts (src/instrument/instrumentSnippet.ts). */
export const SNIPPET_MAIN_LINE = 2;
