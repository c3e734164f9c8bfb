const WORDS = ['the', 'river', 'runs', 'over', 'stone', 'and', 'under', 'bridge', 'a', 'quiet', 'town', 'sleeps', 'near', 'old', 'mill'];

function lcg(seed) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

export function sentence(next, length) {
  const words = [];
  for (let i = 0; i < length; i++) words.push(WORDS[Math.floor(next() * WORDS.length)]);
  return capitalise(words.join(' ')) + '.';
}

function capitalise(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function sentences(count, seed) {
  const next = lcg(seed);
  return Array.from({ length: count }, (_, i) => sentence(next, 6 + (i % 8)));
}
