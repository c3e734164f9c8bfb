export class InsufficientFunds extends Error {
  readonly missing: number;
  constructor(missing: number) {
    super(`missing ${missing} cents`);
    this.name = 'InsufficientFunds';
    this.missing = missing;
  }
}

export class Account {
  readonly id: string;
  balance: number;

  constructor(id: string, balance: number) {
    this.id = id;
    this.balance = balance;
  }

  static open(id: string, balance: number): Account {
    return new Account(id, balance);
  }

  withdraw(cents: number): void {
    if (cents > this.balance) throw new InsufficientFunds(cents - this.balance);
    this.balance -= cents;
  }

  deposit(cents: number): void {
    this.balance += cents;
  }
}
