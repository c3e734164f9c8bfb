const user = {
  name: 'Ann',
  greet() {
    return 'Hi ' + this.name;
  },
};
const greet = user.greet.bind(user);
console.log(greet());
setTimeout(user.greet.bind(user), 10);
