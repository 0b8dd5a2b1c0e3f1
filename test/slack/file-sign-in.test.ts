import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manifestBotScopes } from '../../workspace/web-api/scopes.js';
import { type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';

const SIGN_IN =
  'Slack answered with its sign-in page instead of the file “musteriler.csv”: the app needs the files:read scope (reinstall it after adding the scope).';

// The bot and the local workspace for real. The modal with its file input opens while the app has files:read
// (Slack asks for it to open one); the app is then reinstalled without it, and the workspace answers the file's
// download as Slack does: with its sign-in page (HTML, status 200), not with the file.
let h: Harness;
const withoutFilesRead = () =>
  h.fake.setScopes(manifestBotScopes().filter((scope) => scope !== 'files:read'));

beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => h.fake.setScopes(manifestBotScopes()));
afterAll(() => h.close());

describe('an app without files:read', () => {
  it('tells the person who uploaded a list that the app needs files:read, and reads no page as the list', async () => {
    const file = h.fake.state.files.addUpload({
      filename: 'musteriler.csv',
      bytes: Buffer.from('Telefon\n05321111111\n05321111112\n'),
      uploader: users.admin,
    });
    const view = await h.openCompose();
    withoutFilesRead();
    const after = h.fake.state.journal.seq;
    await h.driver.viewSubmission({
      userId: users.admin,
      view,
      values: { [textBlockOf(view)]: { text: 'Merhaba' }, file: { file: [file.id] } },
    });
    await h.fake.state.waitForCall('views.update', (c) => typeof c.args.external_id === 'string', { after });
    const review = h.fake.state.views.top(users.admin)!;
    const shown = JSON.stringify(review.blocks);
    expect(review.title.text).toBe('Check the file');
    expect(shown).toContain(SIGN_IN);
    // Nothing of the page was read as rows: no report, no draft to confirm.
    expect(shown).not.toContain('Rows read');
    expect(review.callback_id).not.toBe('confirm_send');
    expect(await h.store.outbox.recent(5)).toEqual([]);
  });

  it('says the same to an admin importing a list, and leaves the lists as they were', async () => {
    const after = h.fake.state.journal.seq;
    await h.sms('lists import musteriler');
    const opened = await h.fake.state.waitForCall('views.open', () => true, { after });
    const modal = h.fake.state.views.get(String((opened.result as { view: { id: string } }).view.id))!;
    withoutFilesRead();
    const file = h.fake.state.files.addUpload({
      filename: 'musteriler.csv',
      bytes: Buffer.from('Telefon\n05321111111\n'),
      uploader: users.admin,
    });
    const submitted = h.fake.state.journal.seq;
    await h.driver.viewSubmission({
      userId: users.admin,
      view: modal,
      values: { file: { file: [file.id] } },
    });
    await h.fake.state.waitForCall(
      'views.update',
      (c) => c.args.view_id === modal.id && JSON.stringify(c.args.view).includes('sign-in page'),
      { after: submitted },
    );
    expect(JSON.stringify(h.fake.state.views.get(modal.id)!.blocks)).toContain(SIGN_IN);
    expect(await h.store.recipientLists.get('musteriler')).toBeUndefined();
  });
});
