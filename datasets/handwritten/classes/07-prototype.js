function Animal(name) {
  this.name = name;
}
Animal.prototype.speak = function () {
  return this.name + ' makes a noise';
};
const a = new Animal(animalName);
console.log(a.speak());
console.log(a instanceof Animal);
