import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadSlackFile, FileDownloadError } from '../../src/slack/file-download.js';

const TOKEN = 'xoxb-download-test-token';
const servers: Server[] = [];

/** A server on loopback that answers with `handle`; the requests it saw are kept in order. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    handle(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function refusal(promise: Promise<unknown>): Promise<FileDownloadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileDownloadError);
  const message = (error as FileDownloadError).message;
  expect(message).not.toContain(TOKEN);
  return error as FileDownloadError;
}

describe('downloadSlackFile', () => {
  it('downloads url_private_download with the bot token as Bearer, byte for byte', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const { base, seen } = await serve((req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    });
    const got = await downloadSlackFile(
      { name: 'list.csv', url_private_download: `${base}/f/list.csv` },
      TOKEN,
    );
    expect(Buffer.from(got).equals(bytes)).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('follows a redirect, and sends the token to Slack’s origin only', async () => {
    const elsewhere = await serve((_req, res) => res.writeHead(200).end('Telefon\n05321234567\n'));
    const slack = await serve((req, res) => {
      if (req.url === '/f/list.csv') return void res.writeHead(302, { location: '/g/list.csv' }).end();
      if (req.url === '/g/list.csv')
        return void res.writeHead(302, { location: `${elsewhere.base}/cdn` }).end();
      res.writeHead(404).end();
    });
    const got = await downloadSlackFile({ name: 'list.csv', url_private: `${slack.base}/f/list.csv` }, TOKEN);
    expect(Buffer.from(got).toString()).toBe('Telefon\n05321234567\n');
    expect(slack.seen.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(elsewhere.seen.map((r) => r.headers.authorization)).toEqual([undefined]);
  });

  it('follows redirects as fetch does, and says so when they never end', async () => {
    let hops = 0;
    const { base } = await serve((req, res) => {
      const n = Number(req.url?.slice(1));
      hops++;
      if (n < 20) return void res.writeHead(302, { location: `/${n + 1}` }).end();
      if (req.url === '/20') return void res.writeHead(200).end('05321234567\n');
    });
    const got = await downloadSlackFile({ name: 'list.txt', url_private: `${base}/0` }, TOKEN);
    expect(Buffer.from(got).toString()).toBe('05321234567\n');
    expect(hops).toBe(21);
    // Always somewhere new: a chain with no end (a redirect back to a place already seen is a loop, and fails).
    const loop = await serve((req, res) =>
      res.writeHead(302, { location: `/${Number(req.url?.slice(1)) + 1}` }).end(),
    );
    const error = await refusal(
      downloadSlackFile({ name: 'list.txt', url_private: `${loop.base}/0` }, TOKEN),
    );
    expect(error.message).toBe(
      'Slack sent the download of “list.txt” on through too many redirects (HTTP 302). Upload it again.',
    );
  });

  it('says Slack refused, and hints at files:read on a 403, without the token', async () => {
    const { base } = await serve((_req, res) => res.writeHead(403).end(`token ${TOKEN} lacks files:read`));
    const error = await refusal(downloadSlackFile({ name: 'list.csv', url_private: `${base}/f` }, TOKEN));
    expect(error.message).toBe(
      'Slack refused the download of “list.csv” (HTTP 403). Upload it again; if it persists, the app may lack the files:read scope.',
    );
  });

  it('refuses a file over 10 MB, by its size before asking and by its bytes while reading', async () => {
    const big = Buffer.alloc(256 * 1024, 48);
    const { base, seen } = await serve((_req, res) => {
      // No content-length: the cap must hold however the body comes.
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      let sent = 0;
      const more = () => {
        while (sent < 11 * 1024 * 1024) {
          sent += big.length;
          if (!res.write(big)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const bySize = await refusal(
      downloadSlackFile({ name: 'big.csv', size: 11 * 1024 * 1024, url_private: `${base}/f` }, TOKEN),
    );
    expect(bySize.message).toBe('“big.csv” is larger than 10 MB, the most a file here may be.');
    expect(seen).toHaveLength(0);
    const byBytes = await refusal(downloadSlackFile({ name: 'big.csv', url_private: `${base}/f` }, TOKEN));
    expect(byBytes.message).toBe('“big.csv” is larger than 10 MB, the most a file here may be.');
  });

  it('gives up after the timeout, whether the answer or the body stalls', async () => {
    const silent = await serve(() => undefined);
    const headersOnly = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('Telefon\n');
    });
    for (const base of [silent.base, headersOnly.base]) {
      const error = await refusal(
        downloadSlackFile({ name: 'slow.csv', url_private: `${base}/f` }, TOKEN, { timeoutMs: 300 }),
      );
      expect(error.message).toBe(
        'Downloading “slow.csv” from Slack took longer than 0.3 seconds. Try again.',
      );
    }
  });

  it('says the download failed when the connection breaks in the body', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write(Buffer.alloc(1000, 48), () => res.destroy());
    });
    const error = await refusal(downloadSlackFile({ name: 'cut.csv', url_private: `${base}/f` }, TOKEN));
    expect(error.message).toBe('“cut.csv” could not be downloaded from Slack. Try again.');
  });

  it('asks once more when the connection is closed before any answer, as a kept-alive one can be', async () => {
    let attempts = 0;
    const { base } = await serve((req, res) => {
      attempts++;
      if (attempts === 1) return void req.socket.destroy();
      res.writeHead(200).end('05321234567\n');
    });
    const got = await downloadSlackFile({ name: 'list.txt', url_private: `${base}/f` }, TOKEN);
    expect(Buffer.from(got).toString()).toBe('05321234567\n');
    expect(attempts).toBe(2);
  });

  it('says there is no link when the file object has none', async () => {
    const error = await refusal(downloadSlackFile({ name: 'list.csv' }, TOKEN));
    expect(error.message).toBe('Slack gave no link to “list.csv”: upload it again.');
  });
});
