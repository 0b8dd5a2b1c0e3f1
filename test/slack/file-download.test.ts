import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadSlackFile, FileDownloadError } from '../../src/slack/file-download.js';
import {
  fileOriginsFor,
  isPrivateAddress,
  judgeFileLink,
  PRIVATE_ADDRESS,
  publicAddressLookup,
} from '../../src/slack/file-links.js';

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

/** The bot's access when its Slack (the Web API and the file host) is the server at `base`. */
const at = (base: string) => ({ token: TOKEN, slackApiUrl: `${base}/api/` });

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
      at(base),
    );
    expect(Buffer.from(got).equals(bytes)).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('follows a redirect within Slack’s origin with the token, and never one to another place', async () => {
    const elsewhere = await serve((_req, res) => res.writeHead(200).end('Telefon\n05321234567\n'));
    const slack = await serve((req, res) => {
      if (req.url === '/f/list.csv') return void res.writeHead(302, { location: '/g/list.csv' }).end();
      if (req.url === '/g/list.csv') return void res.writeHead(200).end('Telefon\n05329876543\n');
      if (req.url === '/f/away.csv')
        return void res.writeHead(302, { location: `${elsewhere.base}/cdn` }).end();
      res.writeHead(404).end();
    });
    const got = await downloadSlackFile(
      { name: 'list.csv', url_private: `${slack.base}/f/list.csv` },
      at(slack.base),
    );
    expect(Buffer.from(got).toString()).toBe('Telefon\n05329876543\n');
    expect(slack.seen.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    // Another origin, on loopback: not Slack's, and a private address; it is never asked, with or without the token.
    const error = await refusal(
      downloadSlackFile({ name: 'away.csv', url_private: `${slack.base}/f/away.csv` }, at(slack.base)),
    );
    expect(error.message).toBe(
      'Slack sent the download of “away.csv” on to a place that is not Slack’s: nothing was fetched from there. Upload it again.',
    );
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('follows redirects as fetch does, and says so when they never end', async () => {
    let hops = 0;
    const { base } = await serve((req, res) => {
      const n = Number(req.url?.slice(1));
      hops++;
      if (n < 20) return void res.writeHead(302, { location: `/${n + 1}` }).end();
      if (req.url === '/20') return void res.writeHead(200).end('05321234567\n');
    });
    const got = await downloadSlackFile({ name: 'list.txt', url_private: `${base}/0` }, at(base));
    expect(Buffer.from(got).toString()).toBe('05321234567\n');
    expect(hops).toBe(21);
    // Always somewhere new: a chain with no end (a redirect back to a place already seen is a loop, and fails).
    const loop = await serve((req, res) =>
      res.writeHead(302, { location: `/${Number(req.url?.slice(1)) + 1}` }).end(),
    );
    const error = await refusal(
      downloadSlackFile({ name: 'list.txt', url_private: `${loop.base}/0` }, at(loop.base)),
    );
    expect(error.message).toBe(
      'Slack sent the download of “list.txt” on through too many redirects (HTTP 302). Upload it again.',
    );
  });

  it('says Slack refused, and hints at files:read on a 403, without the token', async () => {
    const { base } = await serve((_req, res) => res.writeHead(403).end(`token ${TOKEN} lacks files:read`));
    const error = await refusal(downloadSlackFile({ name: 'list.csv', url_private: `${base}/f` }, at(base)));
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
      downloadSlackFile({ name: 'big.csv', size: 11 * 1024 * 1024, url_private: `${base}/f` }, at(base)),
    );
    expect(bySize.message).toBe('“big.csv” is larger than 10 MB, the most a file here may be.');
    expect(seen).toHaveLength(0);
    const byBytes = await refusal(downloadSlackFile({ name: 'big.csv', url_private: `${base}/f` }, at(base)));
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
        downloadSlackFile({ name: 'slow.csv', url_private: `${base}/f` }, at(base), { timeoutMs: 300 }),
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
    const error = await refusal(downloadSlackFile({ name: 'cut.csv', url_private: `${base}/f` }, at(base)));
    expect(error.message).toBe('“cut.csv” could not be downloaded from Slack. Try again.');
  });

  it('asks once more when the connection is closed before any answer, as a kept-alive one can be', async () => {
    let attempts = 0;
    const { base } = await serve((req, res) => {
      attempts++;
      if (attempts === 1) return void req.socket.destroy();
      res.writeHead(200).end('05321234567\n');
    });
    const got = await downloadSlackFile({ name: 'list.txt', url_private: `${base}/f` }, at(base));
    expect(Buffer.from(got).toString()).toBe('05321234567\n');
    expect(attempts).toBe(2);
  });

  it('says there is no link when the file object has none', async () => {
    const error = await refusal(downloadSlackFile({ name: 'list.csv' }, at('https://slack.com')));
    expect(error.message).toBe('Slack gave no link to “list.csv”: upload it again.');
  });

  it('refuses a link to any place but Slack’s file host without a request: another host, http, an address', async () => {
    const other = await serve((_req, res) => res.writeHead(200).end('05321234567\n'));
    const slack = await serve((_req, res) => res.writeHead(200).end('05321234567\n'));
    const local = await refusal(
      downloadSlackFile({ name: 'list.csv', url_private_download: `${other.base}/f` }, at(slack.base)),
    );
    expect(local.message).toBe('The link to “list.csv” is not Slack’s: upload it again.');
    expect(other.seen).toHaveLength(0);
    const realSlack = { token: TOKEN, slackApiUrl: 'https://slack.com/api/' };
    for (const link of [
      'http://files.slack.com/files-pri/T1-F1/download/list.csv',
      'https://files.slack.com.evil.example/files-pri/T1-F1/list.csv',
      'https://evil.example/files-pri/T1-F1/list.csv',
      'https://slack-files.com/files-pri/T1-F1/list.csv',
      'https://10.1.2.3/list.csv',
      'https://169.254.169.254/latest/meta-data/',
      'https://2130706433/list.csv',
      'https://[::1]/list.csv',
      'https://[fd00::1]/list.csv',
      'file:///etc/passwd',
      'not a link',
    ]) {
      const error = await refusal(
        downloadSlackFile({ name: 'list.csv', url_private_download: link }, realSlack),
      );
      expect(error.message, link).toBe('The link to “list.csv” is not Slack’s: upload it again.');
    }
  });

  it('says the app needs files:read when Slack answers with its sign-in page, and never returns the page', async () => {
    const page =
      '<!DOCTYPE html><html lang="en-US"><head><title>Slack</title></head><body>Sign in</body></html>';
    const signIn = await serve((req, res) => {
      if (req.url === '/html')
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      // Bytes that say HTML whatever the content type: the page, as a proxy may pass it on.
      if (req.url === '/sniffed')
        return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(`\n  ${page}`);
      if (req.url === '/redir')
        return void res
          .writeHead(302, { location: '/?redir=%2Ffiles-pri%2FT1-F1%2Fdownload%2Flist.csv' })
          .end('<a href="/?redir=%2Ffiles-pri%2FT1-F1%2Fdownload%2Flist.csv">Found</a>.');
      if (req.url === '/team')
        return void res
          .writeHead(302, { location: 'https://acme.slack.com/?redir=%2Ffiles-pri%2FT1-F1%2Flist.csv' })
          .end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    for (const path of ['/html', '/sniffed', '/redir', '/team']) {
      const error = await refusal(
        downloadSlackFile(
          { name: 'list.csv', url_private_download: `${signIn.base}${path}` },
          at(signIn.base),
        ),
      );
      expect(error.message, path).toBe(
        'Slack answered with its sign-in page instead of the file “list.csv”: the app needs the files:read scope (reinstall it after adding the scope).',
      );
    }
    // The sign-in page a redirect names is not asked for.
    expect(signIn.seen.map((r) => r.url)).toEqual(['/html', '/sniffed', '/redir', '/team']);
  });
});

describe('where a file link may lead', () => {
  it('lets the token go to Slack’s file host, or to the origin of the Slack the bot talks to', () => {
    expect(fileOriginsFor(undefined)).toEqual(['https://files.slack.com']);
    expect(fileOriginsFor('https://slack.com/api/')).toEqual(['https://files.slack.com']);
    expect(fileOriginsFor('https://acme.enterprise.slack.com/api/')).toEqual(['https://files.slack.com']);
    expect(fileOriginsFor('http://127.0.0.1:3000/api/')).toEqual(['http://127.0.0.1:3000']);
  });

  it('follows a redirect to Slack’s other https hosts without the token, and nowhere else', () => {
    const allowed = ['https://files.slack.com'];
    const kind = (link: string) => judgeFileLink(new URL(link), allowed).kind;
    expect(kind('https://files.slack.com/files-pri/T1-F1/download/a.csv')).toBe('with-token');
    expect(kind('https://slack-files.com/files-pri/T1-F1/a.csv')).toBe('without-token');
    expect(kind('https://acme.slack.com/files/U1/F1/a.csv')).toBe('without-token');
    expect(kind('https://a.slack-edge.com/x')).toBe('without-token');
    for (const link of [
      'http://files.slack.com/a.csv',
      'http://acme.slack.com/a.csv',
      'https://files.slack.com:8443/a.csv',
      'https://evilslack.com/a.csv',
      'https://slack.com.evil.example/a.csv',
      'https://127.0.0.1/a.csv',
      'https://0x7f.1/a.csv',
      'https://[fe80::1]/a.csv',
    ]) {
      expect(kind(link), link).toBe('refused');
    }
  });

  it('knows loopback, private, link-local and unique-local addresses, IPv4-mapped ones too', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.20.30.40',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      'fc00::1',
      'fdab:1234::5',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      // IPv6 forms that carry an IPv4 address reach it: IPv4-compatible, NAT64, 6to4.
      '::127.0.0.1',
      '::7f00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::1',
      '2002:c0a8:101::',
      'fec0::1',
      '198.18.0.1',
      '192.0.2.10',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of [
      '8.8.8.8',
      '172.32.0.1',
      '192.169.0.1',
      '52.89.1.1',
      '2606:4700::1111',
      // DNS64 on an IPv6-only network hands out NAT64 addresses for public hosts: those stay reachable.
      '64:ff9b::34.89.1.1',
      '2002:3459:101::1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('connects to a name that resolves to a private address never: the socket is refused before a byte', async () => {
    const { base, seen } = await serve((_req, res) => res.writeHead(200).end('05321234567\n'));
    const port = new URL(base).port;
    const guarded = new Agent({ connect: { lookup: publicAddressLookup } });
    // localhost resolves to 127.0.0.1 (or ::1): as a Slack name poisoned to point inside would.
    const error = await request(`http://localhost:${port}/f`, { dispatcher: guarded }).then(
      () => undefined,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    await guarded.close();
    expect(error?.code).toBe(PRIVATE_ADDRESS);
    expect(seen).toHaveLength(0);
  });
});
