fetch('https://api.github.com/users/octocat')
  .then(response => {
    if (!response.ok) {
      throw new Error('HTTP ' + response.status);
    }
    return response.json();
  })
  .then(user => console.log(user.login, user.public_repos))
  .catch(err => console.error(err.message));
