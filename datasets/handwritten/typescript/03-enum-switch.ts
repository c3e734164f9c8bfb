enum Status { Active = 'active', Disabled = 'disabled' }
function label(status: Status): string {
  switch (status) {
    case Status.Active: return 'On';
    case Status.Disabled: return 'Off';
  }
}
const account = getAccount(42);
console.log(label(account.status as Status));
