function readJson(file) {
  return new Promise((resolve, reject) => {
    fs.readFile(file, 'utf8', (err, text) => {
      if (err) return reject(err);
      resolve(JSON.parse(text));
    });
  });
}
readJson('package.json').then(pkg => console.log(pkg.name));
