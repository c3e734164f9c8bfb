const response = await fetch('/api/login', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ username, password: pwd }),
});
const { token, expiresIn } = await response.json();
localStorage.setItem('token', token);
console.log('expires in', expiresIn);
