import express, { Request, Response } from 'express';
const app = express();
app.use(express.json());
app.post('/items', (req: Request, res: Response) => {
  const { name, price } = req.body as { name: string; price: number };
  if (!name) {
    return res.status(400).json({ error: 'name required' });
  }
  res.status(201).json({ name, price: Number(price) });
});
app.listen(3000, () => console.log('listening'));
