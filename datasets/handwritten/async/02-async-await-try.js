async function getWeather(city) {
  try {
    const res = await fetch(`https://api.example.com/weather?q=${city}`);
    const data = await res.json();
    return `${data.name}: ${data.main.temp}°C`;
  } catch (e) {
    return 'unavailable';
  }
}
getWeather('Paris').then(console.log);
