const urls = ['/a', '/b', '/c'];
urls.reduce((p, url) => p.then(results =>
  http.get(url).then(r => [...results, r.body])
), Promise.resolve([])).then(all => console.log(all.length, 'bodies'));
