$.getJSON('https://api.example.com/users/1').then(function (user) {
  $('#name').text(user.name);
  return $.getJSON('/api/posts?user=' + user.id);
}).then(function (posts) {
  console.log('posts:', posts.length);
}).fail(function () {
  console.log('request failed');
});
