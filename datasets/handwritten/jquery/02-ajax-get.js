$.ajax({
  url: '/api/items',
  type: 'GET',
  dataType: 'json',
  success: function (data) {
    $.each(data.items, function (i, item) {
      $('#list').append('<li>' + item.name + '</li>');
    });
  },
  error: function (xhr, status, err) {
    console.error('failed', status, err);
  }
});
