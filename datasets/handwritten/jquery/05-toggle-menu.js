$(function () {
  $('.menu-toggle').on('click', function () {
    $(this).toggleClass('open');
    $('.menu').slideToggle(200);
  });
  $(window).on('scroll', function () {
    if ($(window).scrollTop() > 100) {
      $('header').addClass('sticky');
    } else {
      $('header').removeClass('sticky');
    }
  });
});
