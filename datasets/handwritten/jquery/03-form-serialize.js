$('#contact').submit(function (e) {
  e.preventDefault();
  var data = $(this).serialize();
  $.post('/contact', data, function (response) {
    if (response.ok) {
      $('#message').text('Thanks!').fadeIn();
    } else {
      $('#message').text(response.error).addClass('error');
    }
  });
});
