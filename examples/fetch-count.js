fetchCount()
  .then((n) => {
    console.log('Got', n.toFixed(0));
  })
  .catch((err) => {
    console.log('Failed:', err.message);
  });
