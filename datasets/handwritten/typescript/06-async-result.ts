async function loadConfig(path: string): Promise<Record<string, string>> {
  const text: string = await fs.promises.readFile(path, 'utf8');
  return Object.fromEntries(text.split('\n').filter(Boolean).map(l => l.split('=') as [string, string]));
}
const config = await loadConfig('.env');
console.log(Object.keys(config).length, 'settings');
