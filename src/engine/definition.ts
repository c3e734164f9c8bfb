import type { Category, ElementKind } from '../core/categories.ts';
import type { FailedAttempt, Proposal } from '../values/types.ts';

/** One injected element and the definition that currently stands for it. */
export interface Definition {
  readonly id: string;
  readonly kind: ElementKind;
  readonly parent: string | undefined;
  readonly name: string;
  readonly usageKey: string;
  readonly line: number;
  /** Why it was first requested: the error the snippet would have raised. */
  readonly message: string;
  proposal: Proposal;
  provider: string;
  attempts: number;
  readonly history: FailedAttempt[];
  readonly rejected: Category[];
  /** Fallback categories picked so far. */
  fallbacks: number;
  /** Learnt as if the snippet declared no type for it (or its owner): the declared one did worse (setAsideDeclared). */
  undeclared?: true;
}
