// Loaded into the real bot by a drill (NODE_OPTIONS=--import=…): on SIGUSR2 a promise fails and nobody
// handles it, as a forgotten `void` would. The bot must log it and keep serving.
process.on('SIGUSR2', () => {
  Promise.reject(new Error('planted rejection'));
});
