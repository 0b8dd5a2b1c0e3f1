import { describe, expect, it } from 'vitest';
import { normaliseNumber, parseCsv, parseRecipients, renderEnvelopes } from '../../src/sms/index.js';
import { readPhoneCell } from '../../src/sms/phone-cell.js';
import { recipientsFromTable } from '../../src/tables/file-recipients.js';
import { readTableFile } from '../../src/tables/table-file.js';

// As they arrive: WhatsApp wraps a copied number in LEFT-TO-RIGHT EMBEDDING … POP DIRECTIONAL FORMATTING, an
// iPhone's contacts in LEFT-TO-RIGHT OVERRIDE or marks, Android in isolates; zero-width spaces and no-break spaces
// come with text copied from web pages and phones' own grouping.
const WHATSAPP = '\u202a+90 532 123 45 67\u202c';
const CONTACTS = '\u202d+90 (533) 123-45-67\u202c';
const MARKED = '\u200e0534\u00a0123\u00a045\u00a067\u200f';
const ISOLATED = '\u2066+90\u202f535\u202f123\u202f45\u202f67\u2069';
const ZERO_WIDTH = '0536\u200b123\u200d45\u206067\ufeff';
const PASTED = [WHATSAPP, CONTACTS, MARKED, ISOLATED, ZERO_WIDTH];
const MSISDNS = ['905321234567', '905331234567', '905341234567', '905351234567', '905361234567'];

describe('numbers with the invisible marks a phone or WhatsApp leaves in them', () => {
  it('are read, not rejected, when typed or pasted as recipients, and shown back without the marks', () => {
    const parsed = parseRecipients(`${PASTED.join('\n')}\n\u202a+90 999\u202c`, 'TR');
    expect(parsed.recipients.map((r) => r.msisdn)).toEqual(MSISDNS);
    expect(parsed.recipients[0]!.input).toBe('+90 532 123 45 67');
    // A bad number is shown as the person sees it: no override left to turn the reply around.
    expect(parsed.invalid).toEqual([{ input: '+90 999', line: 6, reason: expect.any(String) }]);
    // Two numbers on a line with marks between them are still two.
    const two = parseRecipients('\u202a05321234567\u202c \u202a05331234567\u202c', 'TR');
    expect(two.recipients.map((r) => r.msisdn)).toEqual(['905321234567', '905331234567']);
  });

  it('are read in a cell, as numbers and with a spreadsheet’s reasons, and by the explaining parser', () => {
    for (const [i, text] of PASTED.entries()) {
      expect(readPhoneCell(text, 'TR')).toEqual({ ok: true, msisdn: MSISDNS[i] });
      expect(normaliseNumber(text, 'TR')).toEqual({ ok: true, msisdn: MSISDNS[i] });
    }
    // Through the slow path too: an international prefix the shortcut leaves to libphonenumber.
    expect(normaliseNumber('\u202a0090\u00a0532 123 45 67\u202c', 'TR')).toEqual({
      ok: true,
      msisdn: '905321234567',
    });
    expect(readPhoneCell('\u200e5,32E+09\u200f', 'TR')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^the spreadsheet wrote the number as 5,32E\+09,/),
    });
    expect(readPhoneCell('\u200e0212 123 45 67', 'TR')).toEqual({ ok: false, reason: 'not a mobile number' });
  });

  it('are read in an uploaded file’s phone column and in a pasted personalised CSV', async () => {
    const file = `Ad;Cep Telefonu\n${PASTED.map((n, i) => `Kişi ${i};${n}`).join('\n')}\n`;
    const table = await readTableFile('rehber.csv', Buffer.from(file, 'utf8'));
    const got = recipientsFromTable(table, 'TR');
    expect(got.recipients).toEqual(MSISDNS);
    expect(got.rejected).toEqual([]);

    const csv = parseCsv(`number,name\n${PASTED.map((n, i) => `"${n}",Kişi ${i}`).join('\n')}\n`);
    const rendered = renderEnvelopes('Merhaba {{name}}', csv, 'TR');
    expect(rendered.errors).toEqual([]);
    expect(rendered.envelopes.map((e) => e.to)).toEqual(MSISDNS);

    // A bad number in the table is named without its marks.
    const bad = renderEnvelopes(
      'Merhaba {{name}}',
      parseCsv('number,name\n"\u202a+90 999\u202c",Ali\n'),
      'TR',
    );
    expect(bad.errors.map((e) => e.reason)).toEqual([expect.stringMatching(/^"\+90 999": /)]);
  });
});
