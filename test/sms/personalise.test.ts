import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, renderEnvelopes, templatePlaceholders } from '../../src/sms/index.js';

describe('templatePlaceholders', () => {
  it('lists distinct column names in order of first use, blanks inside braces allowed', () => {
    expect(templatePlaceholders('Hi {{name}}, code {{ code }}; bye {{  name  }}')).toEqual(['name', 'code']);
    expect(templatePlaceholders('{{ first name }} {{Soyadı}}')).toEqual(['first name', 'Soyadı']);
  });

  it('ignores text that only looks like a placeholder', () => {
    expect(templatePlaceholders('no {single} braces, {{}} or {{   }} or {{ open')).toEqual([]);
  });
});

describe('renderEnvelopes', () => {
  const csv = parseCsv(
    [
      'number,name,code',
      '0532 123 45 67,Ali,A1',
      '+90 532 765 43 21,"Yılmaz, Ayşe",B2',
      '05321112233,Can,C3',
    ].join('\n'),
  );

  it('fills each row into the template and addresses it in gateway form', () => {
    const rendered = renderEnvelopes('Merhaba {{name}}, kodunuz {{ code }}.', csv, 'TR');
    expect(rendered).toMatchObject({
      envelopes: [
        { to: '905321234567', message: 'Merhaba Ali, kodunuz A1.', line: 2 },
        { to: '905327654321', message: 'Merhaba Yılmaz, Ayşe, kodunuz B2.', line: 3 },
        { to: '905321112233', message: 'Merhaba Can, kodunuz C3.', line: 4 },
      ],
      errors: [],
      missingColumns: [],
    });
    expect(rendered.envelopes).toHaveLength(3);
    // Septets by line, counted from the template's text and the values: ı and ş cost two in Turkish
    // single shift, and GSM-7 cannot carry them.
    expect([...rendered.septets.gsm7.slice(2)]).toEqual([24, -1, 24]);
    expect([...rendered.septets.turkish.slice(2)]).toEqual([24, 35, 24]);
  });

  it('matches placeholders to columns regardless of case, Turkish I included', () => {
    const turkish = parseCsv('Telefon,İsim\n05321234567,Ali\n');
    expect(renderEnvelopes('{{isim}} / {{ISIM}} / {{TELEFON}}', turkish, 'TR').envelopes).toEqual([
      { to: '905321234567', message: 'Ali / Ali / 05321234567', line: 2 },
    ]);
  });

  it('sends nothing while a placeholder has no column, and names it', () => {
    const r = renderEnvelopes('Hi {{name}}, your {{ Coupon }} and {{points}}', csv, 'TR');
    expect(r.missingColumns).toEqual(['Coupon', 'points']);
    expect(r.envelopes).toEqual([]);
  });

  it('leaves out rows with a bad number, naming the line, the number and why', () => {
    const bad = parseCsv('phone,name\n05321234567,Ali\n0212 123 45 67,Office\n12345,Short\n,Nobody\n');
    const r = renderEnvelopes('Hi {{name}}', bad, 'TR');
    expect(r.envelopes.map((e) => e.line)).toEqual([2]);
    expect(r.errors).toEqual([
      { line: 3, reason: '"0212 123 45 67": not a mobile number' },
      { line: 4, reason: '"12345": too short' },
      { line: 5, reason: 'no phone number' },
    ]);
  });

  it('leaves out a repeated number so nobody gets the message twice', () => {
    const twice = parseCsv('number,name\n05321234567,Ali\n05327654321,Veli\n+90 532 123 45 67,Ali again\n');
    const r = renderEnvelopes('Hi {{name}}', twice, 'TR');
    expect(r.envelopes.map((e) => e.line)).toEqual([2, 3]);
    expect(r.errors).toEqual([{ line: 4, reason: 'same number as line 2' }]);
  });

  it('leaves out a row whose placeholder value is empty rather than send "Dear ,"', () => {
    const gaps = parseCsv('number,name,code\n05321234567,,X\n05327654321,Veli,\n05321112233,Can,Z\n');
    const r = renderEnvelopes('Dear {{name}}', gaps, 'TR');
    // Line 3's empty code does not matter: the template does not use it.
    expect(r.envelopes.map((e) => e.line)).toEqual([3, 4]);
    expect(r.errors).toEqual([{ line: 2, reason: 'column "name" is empty' }]);
  });

  it('does not mistake built-in object properties for columns', () => {
    expect(renderEnvelopes('{{constructor}} {{toString}}', csv, 'TR').missingColumns).toEqual([
      'constructor',
      'toString',
    ]);
    const odd = parseCsv('number,__proto__\n05321234567,x\n');
    expect(renderEnvelopes('[{{__proto__}}]', odd, 'TR').envelopes[0]?.message).toBe('[x]');
  });

  it('reports a message that comes out empty', () => {
    const r = renderEnvelopes('   ', csv, 'TR');
    expect(r.envelopes).toEqual([]);
    expect(r.errors.map((e) => e.reason)).toEqual(Array(3).fill('the message is empty'));
  });

  it('inserts values literally: no $ patterns, no placeholders inside values', () => {
    const tricky = parseCsv('number,name,code\n05321234567,"$& $1 $$","{{name}}"\n');
    expect(renderEnvelopes('{{name}} {{code}}', tricky, 'TR').envelopes[0]?.message).toBe(
      '$& $1 $$ {{name}}',
    );
  });
});

describe('renderEnvelopes properties', () => {
  it('never throws on arbitrary templates and CSV text', () => {
    const csvish = fc.string({
      unit: fc.constantFrom(...'ab ,"\n{}', '05321234567', 'name', '{{name}}'),
      maxLength: 80,
    });
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.oneof(csvish, fc.string()),
        (template, text) => {
          const r = renderEnvelopes(template, parseCsv(text), 'TR');
          if (r.missingColumns.length > 0) expect(r.envelopes).toEqual([]);
          const lines = [...r.envelopes, ...r.errors].map((x) => x.line);
          expect(new Set(lines).size).toBe(lines.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives every valid row exactly one envelope with its own values', () => {
    const name = fc.string({ unit: fc.constantFrom(...'abcşİ ,"\n'), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 9_999_999 }), { maxLength: 15 }),
        name,
        (ids, who) => {
          const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
          const rows = ids.map((id, i) => `0532${String(id).padStart(7, '0')},${quote(`${who}${i}`)}`);
          const r = renderEnvelopes('<{{name}}>', parseCsv(['number,name', ...rows].join('\n')), 'TR');
          expect(r.errors).toEqual([]);
          expect(r.envelopes.map((e) => e.message)).toEqual(ids.map((_, i) => `<${who}${i}>`));
          expect(r.envelopes.map((e) => e.to)).toEqual(
            ids.map((id) => `90532${String(id).padStart(7, '0')}`),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
