// The outsider of intake-flood.test.ts, in a process of its own as it would be on its own host: slow
// uploads to the bot's /slack/events, each reopened a second after the bot cuts it off. Tells the test
// 'attacking' once every slot is open, and 'done' with the answers it got when told to 'stop'.
import { randomBytes } from 'node:crypto';
import { rawRequest } from '../support/raw-client.js';

export interface AttackerArgs {
  port: number;
  /** Slots sending no signature headers, declaring 4 MB. */
  unsigned: number;
  /** Slots sending well-formed signature headers no secret made, with a fresh timestamp, declaring 1 MiB. */
  forged: number;
  /** The slots open one after another over this long. */
  rampMs: number;
}

export type AnswerCounts = Record<string, number>;

const args = JSON.parse(process.argv[2]!) as AttackerArgs;
const TRICKLE = Buffer.alloc(8 * 1024, 'b');
let running = true;
const stops: Array<() => void> = [];

/** Opens an upload, sends `first` bytes at once, then 8 KiB every 250 ms until the bot answers and closes. */
function slot(signatureHeaders: () => string[], declared: number, first: number, answers: AnswerCounts) {
  let current: ReturnType<typeof rawRequest> | undefined;
  let trickle: NodeJS.Timeout | undefined;
  let again: NodeJS.Timeout | undefined;
  const count = (key: string) => {
    answers[key] = (answers[key] ?? 0) + 1;
  };
  const open = () => {
    if (!running) return;
    const upload = rawRequest(
      args.port,
      [
        'POST /slack/events HTTP/1.1',
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${declared}`,
        ...signatureHeaders(),
      ],
      Buffer.alloc(first, 'a'),
    );
    current = upload;
    trickle = setInterval(() => upload.send(TRICKLE), 250);
    upload.status.then((status) => count(String(status))).catch(() => count(running ? 'none' : 'stopped'));
    void upload.closed.then(() => {
      clearInterval(trickle);
      again = setTimeout(open, 1_000);
    });
  };
  open();
  stops.push(() => {
    clearInterval(trickle);
    clearTimeout(again);
    current?.socket.destroy();
  });
}

const unsigned: AnswerCounts = {};
const forged: AnswerCounts = {};
const total = args.unsigned + args.forged;
for (let i = 0; i < total; i++) {
  if (i < args.unsigned) slot(() => [], 4_000_000, 16 * 1024, unsigned);
  else {
    const headers = () => [
      `X-Slack-Request-Timestamp: ${Math.floor(Date.now() / 1000)}`,
      `X-Slack-Signature: v0=${randomBytes(32).toString('hex')}`,
    ];
    slot(headers, 1024 * 1024, 256 * 1024, forged);
  }
  await new Promise((resolve) => setTimeout(resolve, args.rampMs / total));
}
process.send!({ type: 'attacking' });

process.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  running = false;
  for (const stop of stops) stop();
  process.send!({ type: 'done', unsigned, forged }, () => process.exit(0));
});
