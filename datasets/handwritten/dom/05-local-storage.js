function saveSettings(settings) {
  localStorage.setItem('settings', JSON.stringify(settings));
}
function loadSettings() {
  const raw = localStorage.getItem('settings');
  return raw ? JSON.parse(raw) : { theme: 'light' };
}
saveSettings({ theme: 'dark', fontSize: 14 });
const settings = loadSettings();
document.body.className = settings.theme;
console.log('theme is', settings.theme);
