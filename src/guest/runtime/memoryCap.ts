import { capBuffers } from './capBuffers.ts';
import { capWebAssembly } from './capWebAssembly.ts';
import { setMemoryBudget } from './memoryBudget.ts';
import { G } from './primordials.ts';

/** Holds WebAssembly memories and resizable or growable buffers to the memory limit (MiB): isolated-vm does not count them. */
export function installMemoryCap(memoryLimitMb: number): void {
  setMemoryBudget(memoryLimitMb);
  capBuffers();
  const WA = G.WebAssembly;
  if (typeof WA === 'object' && WA !== null) capWebAssembly(WA);
}
