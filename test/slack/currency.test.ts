import { afterAll, describe, expect, it } from 'vitest';
import { channels, ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * Amounts as a Turkish reader expects them: `.` for thousands, `,` for decimals and the currency after the
 * amount. The simulator starts with a balance of 1,250 and SMS_PRICE_PER_SEGMENT is 0.05 by default.
 */

let h: Harness | undefined;
afterAll(() => h?.close());

async function balanceText(): Promise<string> {
  await h!.sms('balance');
  return ephemeralText(await h!.ephemeral(users.admin, /Usable credit/));
}

describe('CURRENCY', () => {
  it('shows costs and balances in Turkish lira by default: 1.250,00 ₺', async () => {
    h = await startHarness();
    expect(await balanceText()).toContain('Usable credit 1.250,00 ₺ (main 1.250,00 ₺ + limit 0,00 ₺)');

    // A send's card carries its estimated cost in the same form.
    const start = h.fake.state.journal.seq;
    const view = await h.openCompose('send');
    await h.submitCompose(view, { recipients: '905321234567\n905331234567', text: 'Fiyat listesi' });
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /^SMS batch \d+:/.test(m.text),
      { after: start },
    );
    expect(JSON.stringify(card.blocks)).toContain('*Estimated cost*\\n0,10 ₺');
    expect(await balanceText()).toMatch(/Usable credit 1\.249,90 ₺.*Spent today[^*]*\*0,10 ₺\*/s);
    await h.close();
    h = undefined;
  });

  it('shows another currency when CURRENCY names one', async () => {
    h = await startHarness({ env: { CURRENCY: 'EUR' } });
    const text = await balanceText();
    expect(text).toContain('Usable credit 1.250,00 € (main 1.250,00 € + limit 0,00 €)');
    expect(text).not.toContain('₺');
  });
});
