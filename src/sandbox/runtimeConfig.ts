/**
 * The runtime's config and report, as the host side imports them; they are defined in the
 * protocol both sides share (src/protocol/runtime.ts).
 */
import type { RequestKind } from '../protocol/runtime.ts';
import type { ElementKind } from '../core/categories.ts';

export type { RuntimeConfig, RuntimeReport } from '../protocol/runtime.ts';

/** Fails to typecheck when the protocol's request kinds and the host's element kinds drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type RequestKindsAreElementKinds = Assert<Same<RequestKind, ElementKind>>;
