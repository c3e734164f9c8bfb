export class UserService {
  constructor(private readonly http: HttpClient, private readonly baseUrl: string) {}
  async get(id: number) {
    const res = await this.http.get(`${this.baseUrl}/users/${id}`);
    if (res.status !== 200) throw new Error('not found');
    return res.data;
  }
}
const service = new UserService(httpClient, 'https://api.example.com');
service.get(7).then(u => console.log(u.name));
