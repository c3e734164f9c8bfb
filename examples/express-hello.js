// An Express answer as pasted from Stack Overflow: `express` is not installed, nothing is defined.
const express = require('express');
const app = express();

app.use(express.json());

const port = process.env.PORT || 3000;
app.listen(port, () => {
  console.log(`listening on ${port}`);
});
