class Account {
  #balance = 0;
  deposit(amount) {
    if (amount <= 0) throw new RangeError('amount must be positive');
    this.#balance += amount;
  }
  get balance() { return this.#balance; }
}
const acct = new Account();
acct.deposit(payment.amount);
console.log(acct.balance);
