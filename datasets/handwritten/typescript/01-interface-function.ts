interface User {
  id: number;
  name: string;
  email?: string;
}
function greet(user: User): string {
  return `Hello, ${user.name}${user.email ? ' <' + user.email + '>' : ''}`;
}
const users: User[] = await fetchUsers();
users.forEach(u => console.log(greet(u)));
