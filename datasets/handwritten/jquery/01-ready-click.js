$(document).ready(function () {
  $('#hide').click(function () {
    $('p.note').hide();
  });
  $('#show').on('click', function () {
    $('p.note').show();
  });
});
