import { capBuffers } from './capBuffers.ts';
import { capWebAssembly } from './capWebAssembly.ts';
import { G } from './primordials.ts';

/**
 * Holds WebAssembly memories and resizable or growable buffers to the memory budget (the run's
 * memory limit, setMemoryBudget, read when they are made or grown): isolated-vm does not count them.
 */
export function installMemoryCap(): void {
  capBuffers();
  const WA = G.WebAssembly;
  if (typeof WA === 'object' && WA !== null) capWebAssembly(WA);
}
