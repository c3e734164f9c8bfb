function timeout(ms) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), ms));
}
Promise.race([fetchData(), timeout(1000)])
  .then(data => console.log('got', data.length))
  .catch(e => console.log(e.message));
