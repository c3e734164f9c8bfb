const table = document.getElementById('users');
users.forEach(user => {
  const row = table.insertRow();
  row.insertCell(0).textContent = user.name;
  row.insertCell(1).textContent = user.email;
  if (user.admin) {
    row.classList.add('admin');
  }
});
console.log(`${users.length} rows added`);
