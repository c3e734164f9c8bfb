abstract class Animal {
  constructor(protected name: string) {}
  abstract sound(): string;
  speak(): string {
    return `${this.name} says ${this.sound()}`;
  }
}
class Dog extends Animal {
  sound() { return 'woof'; }
}
console.log(new Dog(petName).speak());
