const ids = [1, 2, 3];
Promise.all(ids.map(id => api.getUser(id)))
  .then(users => {
    const names = users.map(u => u.name);
    console.log(names.join(', '));
  });
