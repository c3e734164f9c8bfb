(function ($) {
  $.fn.highlight = function (color) {
    return this.each(function () {
      $(this).css('background-color', color || 'yellow');
    });
  };
})(jQuery);
$('p.important').highlight('#ff0');
