import { describe, expect, it } from 'vitest';
import { buildStateValues } from '../../workspace/block-kit/state-values.js';
import { SEEDED, type ViewOutput } from '../../workspace/index.js';
import { manifestBotScopes } from '../../workspace/web-api/scopes.js';
import { clientFor, fakeSlack, slackError } from './helpers.js';

const { users } = SEEDED;
const plain = (text: string) => ({ type: 'plain_text' as const, text });

function modalWithFileInput(element: Record<string, unknown>) {
  return {
    type: 'modal' as const,
    title: plain('Upload'),
    submit: plain('Send'),
    blocks: [{ type: 'input', block_id: 'doc', label: plain('Recipients file'), element }],
  };
}

describe('file inputs and files, as Slack has them', () => {
  it('takes a file_input in a modal with max_files 1 to 10, and refuses more', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const open = (element: Record<string, unknown>) =>
      client.views.open({ trigger_id: fake.issueTriggerId(users.admin), view: modalWithFileInput(element) });
    await expect(
      open({ type: 'file_input', action_id: 'doc', max_files: 1, filetypes: ['csv'] }),
    ).resolves.toMatchObject({
      ok: true,
    });
    const refusal = await slackError(open({ type: 'file_input', action_id: 'doc', max_files: 11 }));
    expect(refusal.error).toBe('invalid_arguments');
    expect(refusal.messages.join('\n')).toContain('[json-pointer:/view/blocks/0/element/max_files]');
  });

  it('submits the uploaded files as Slack’s file objects, and no more than max_files', () => {
    const files = new Map([
      ['F1', { id: 'F1', name: 'list.csv', url_private_download: 'http://x/files/F1/list.csv' }],
    ]);
    const view = {
      id: 'V1',
      blocks: modalWithFileInput({ type: 'file_input', action_id: 'doc', max_files: 1 }).blocks,
    } as unknown as ViewOutput;
    const fileObject = (id: string) => files.get(id);
    expect(buildStateValues(view, { doc: { doc: ['F1'] } }, { fileObject })).toEqual({
      doc: { doc: { type: 'file_input', files: [files.get('F1')] } },
    });
    expect(() => buildStateValues(view, { doc: { doc: ['F1', 'F1'] } }, { fileObject })).toThrow(
      /at most 1 files/,
    );
    expect(() => buildStateValues(view, { doc: { doc: ['F9'] } }, { fileObject })).toThrow(
      /no uploaded file F9/,
    );
  });

  it('answers files.info with files:read, and serves url_private_download only with the bot token', async () => {
    const fake = await fakeSlack({ scopes: [...manifestBotScopes(), 'files:read'] });
    const upload = fake.state.files.addUpload({
      filename: 'list.csv',
      bytes: Buffer.from('msisdn\n905321234567\n'),
      uploader: users.admin,
    });
    expect(fake.fileObject(upload.id)).toMatchObject({
      id: upload.id,
      name: 'list.csv',
      mimetype: 'text/csv',
    });
    const { file } = await clientFor(fake).files.info({ file: upload.id });
    expect(file).toMatchObject({
      id: upload.id,
      name: 'list.csv',
      filetype: 'csv',
      size: 20,
      user: users.admin,
    });
    const url = file!.url_private_download!;
    const withToken = await fetch(url, { headers: { authorization: `Bearer ${fake.botToken}` } });
    expect(withToken.status).toBe(200);
    expect(await withToken.text()).toBe('msisdn\n905321234567\n');
    // As Slack answers a browser that is not signed in: a redirect to the team's sign-in page, never JSON.
    for (const headers of [{}, { authorization: 'Bearer xoxb-not-ours' }] as Record<string, string>[]) {
      const refused = await fetch(url, { headers, redirect: 'manual' });
      expect(refused.status).toBe(302);
      const signIn = new URL(refused.headers.get('location')!);
      expect(signIn.origin).toBe(new URL(url).origin);
      expect(signIn.searchParams.get('redir')).toBe(new URL(url).pathname);
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      await refused.arrayBuffer();
    }
    expect((await slackError(clientFor(fake).files.info({ file: 'F0NOPE' }))).error).toBe('file_not_found');
  });

  it('refuses files.info to a token without files:read, and answers its download with the sign-in page', async () => {
    const fake = await fakeSlack({ scopes: manifestBotScopes().filter((s) => s !== 'files:read') });
    const upload = fake.state.files.addUpload({
      filename: 'a.csv',
      bytes: Buffer.from('x'),
      uploader: users.admin,
    });
    expect((await slackError(clientFor(fake).files.info({ file: upload.id }))).error).toBe('missing_scope');
    const url = fake.fileObject(upload.id)!.url_private_download as string;
    // Slack's sign-in page with status 200, as reported of a token without files:read: HTML, not the file.
    const download = await fetch(url, { headers: { authorization: `Bearer ${fake.botToken}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await download.text();
    expect(page).toMatch(/^<!DOCTYPE html>/);
    expect(page).toContain('Sign in');
  });
});
