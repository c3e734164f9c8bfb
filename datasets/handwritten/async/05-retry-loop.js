async function withRetry(fn, times) {
  for (let i = 0; i < times; i++) {
    try {
      return await fn();
    } catch (e) {
      console.log('attempt', i + 1, 'failed');
    }
  }
  throw new Error('all attempts failed');
}
const result = await withRetry(() => client.query('SELECT 1'), 3);
console.log(result.rows.length);
