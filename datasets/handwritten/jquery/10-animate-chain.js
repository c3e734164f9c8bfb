$('#box')
  .css({ opacity: 0 })
  .animate({ opacity: 1, left: '+=50' }, 400, function () {
    console.log('animation done');
  })
  .delay(100)
  .queue(function (next) {
    $(this).addClass('done');
    next();
  });
