const form = document.querySelector('form.signup');
form.addEventListener('submit', function (event) {
  event.preventDefault();
  const email = form.elements.email.value.trim();
  const errors = [];
  if (!email.includes('@')) {
    errors.push('Please enter a valid email');
  }
  if (errors.length) {
    document.getElementById('errors').innerHTML = errors.map(e => `<li>${e}</li>`).join('');
    return;
  }
  form.submit();
});
