async function main() {
  const stream = getEvents();
  let n = 0;
  for await (const event of stream) {
    if (event.type === 'stop') break;
    n++;
  }
  console.log('events', n);
}
main();
