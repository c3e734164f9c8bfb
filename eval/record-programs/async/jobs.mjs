// An async program (ESM): a small job queue whose workers await simulated I/O (timers and
// promises) for 200 jobs, two at a time, then print a summary.
import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';

async function fetchJob(id) {
  await tick();
  return { id, size: (id * 7919) % 97 };
}

async function handle(job) {
  const chunks = await split(job);
  let sum = 0;
  for (const chunk of chunks) sum += await work(chunk);
  return { id: job.id, sum };
}

async function split(job) {
  await tick();
  const chunks = [];
  for (let at = 0; at < job.size; at += 32) chunks.push(Math.min(32, job.size - at));
  return chunks;
}

async function work(chunk) {
  if (chunk > 30) await sleep(0);
  return chunk * chunk;
}

async function worker(queue, results) {
  while (queue.length > 0) {
    const id = queue.shift();
    results.push(await handle(await fetchJob(id)));
  }
}

async function main() {
  const queue = Array.from({ length: 200 }, (_, i) => i + 1);
  const results = [];
  await Promise.all([worker(queue, results), worker(queue, results)]);
  const total = results.reduce((n, r) => n + r.sum, 0);
  console.log(`${results.length} jobs, total ${total}`);
}

await main();
