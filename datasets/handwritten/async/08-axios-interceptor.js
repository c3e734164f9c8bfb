const api = axios.create({ baseURL: 'https://api.example.com', timeout: 5000 });
api.interceptors.request.use(config => {
  config.headers.Authorization = `Bearer ${getToken()}`;
  return config;
});
const { data } = await api.get('/me');
console.log(data.email);
