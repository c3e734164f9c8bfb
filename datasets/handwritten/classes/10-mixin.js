const Serializable = Base => class extends Base {
  toJSON() { return JSON.stringify(Object.assign({}, this)); }
};
class Model { constructor(data) { Object.assign(this, data); } }
class User extends Serializable(Model) {}
const u = new User(row);
console.log(u.toJSON());
