// The ack timer's own process (bench/ack-timer.ts): sends each signed request it is handed and times it here,
// where nothing else runs, so a slow spell in the process that plays Slack does not count as the bot's.
// Plain JavaScript: started without a compiler, its heap stays small.
process.on('message', async (request) => {
  let answer;
  try {
    const started = performance.now();
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });
    const text = await response.text();
    answer = {
      id: request.id,
      status: response.status,
      text,
      headers: Object.fromEntries(response.headers),
      elapsedMs: performance.now() - started,
    };
  } catch (error) {
    // fetch's own message is only "fetch failed": the reason (ECONNREFUSED, a reset) is in its cause.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
    const reason = error instanceof Error ? error.message : String(error);
    answer = { id: request.id, error: cause ? `${reason} (${cause.code ?? cause.message})` : reason };
  }
  process.send(answer);
});
process.on('disconnect', () => process.exit(0));
