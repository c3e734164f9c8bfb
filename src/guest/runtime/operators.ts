/** The snippet's binary operators, performed for it by the operator hook. */
import type { Dyn } from './primordials.ts';
import { TypeErrorCtor } from './primordials.ts';

/** `a op b` for a comparison, or undefined when op is none. */
export function comparison(op: string, a: Dyn, b: Dyn): boolean | undefined {
  switch (op) {
    case '===': return a === b;
    case '!==': return a !== b;
    case '==': return a == b;
    case '!=': return a != b;
    case '<': return a < b;
    case '>': return a > b;
    case '<=': return a <= b;
    case '>=': return a >= b;
    case 'instanceof': return a instanceof b;
    case 'in': return a in b;
  }
  return undefined;
}

/** `a op b` for an arithmetic operator. */
export function arithmetic(op: string, a: Dyn, b: Dyn): unknown {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    case '%': return a % b;
    case '**': return a ** b;
    case '|': return a | b;
    case '&': return a & b;
    case '^': return a ^ b;
    case '<<': return a << b;
    case '>>': return a >> b;
    case '>>>': return a >>> b;
  }
  throw new TypeErrorCtor(`unknown operator ${op}`);
}
