import { describe, expect, it } from 'vitest';
import { readTableFile } from '../../src/tables/table-file.js';
import { escapeXml, MAIN, OFFICE_RELATIONSHIPS, packageOf, packageParts, zipOf } from './xlsx-fixtures.js';

/** Workbooks laid out as writers other than Excel and exceljs lay them out: each was refused or misread. */
describe('the .xlsx reader reads workbooks as other writers make them', () => {
  it('places cells and rows without references by their order, as streaming exporters write them', async () => {
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Export',
          data:
            '<row><c t="inlineStr"><is><t>GSM</t></is></c><c t="inlineStr"><is><t>Ad</t></is></c></row>' +
            '<row><c><v>5321234567</v></c><c t="inlineStr"><is><t>Ayşe</t></is></c></row>' +
            '<row r="5"><c><v>5331234567</v></c><c/><c t="inlineStr"><is><t>not</t></is></c></row>' +
            '<row><c r="B6" t="inlineStr"><is><t>Can</t></is></c><c><v>7</v></c></row>',
        },
      ],
    });
    const table = await readTableFile('export.xlsx', bytes);
    expect(table.records).toEqual([
      { line: 1, fields: ['GSM', 'Ad'] },
      { line: 2, fields: ['5321234567', 'Ayşe'] },
      { line: 5, fields: ['5331234567', '', 'not'] },
      { line: 6, fields: ['', 'Can', '7'] },
    ]);
    // Asked for one column past the first records, every row is still placed right.
    const many = await packageOf({
      sheets: [
        {
          name: 'Export',
          data: Array.from(
            { length: 100 },
            (_, i) =>
              `<row><c><v>${5_320_000_000 + i}</v></c><c t="inlineStr"><is><t>Ad ${i}</t></is></c></row>`,
          ).join(''),
        },
      ],
    });
    const read = await readTableFile('export.xlsx', many, { columnsWanted: () => [0] });
    expect(read.records.map((r) => [r.line, r.fields[0]])).toEqual(
      Array.from({ length: 100 }, (_, i) => [i + 1, String(5_320_000_000 + i)]),
    );
  });

  it('reads elements with a namespace prefix in every part, as the Open XML SDK writes them, and strict OOXML', async () => {
    const prefixed = (xml: string) =>
      xml
        .replace(/<(\/?)(?=[A-Za-z])/g, '<$1x:')
        .replace(`xmlns="${MAIN}"`, `xmlns:x="${MAIN}"`)
        .replace(/xmlns="http:\/\/schemas.openxmlformats.org\/package\/2006\/relationships"/, (m) =>
          m.replace('xmlns=', 'xmlns:x='),
        );
    const styles = `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd.mm.yyyy"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`;
    const bytes = await packageOf({
      sheets: [
        {
          name: 'SDK',
          data: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row><row r="2"><c r="A2"><v>5321234567</v></c><c r="B2" t="s"><v>3</v></c><c r="C2" s="1"><v>45366</v></c></row>',
        },
      ],
      sharedStrings: ['GSM', 'Ad', 'Randevu', 'Ayşe'],
      styles,
      change: (parts) => {
        for (const name of Object.keys(parts)) {
          if (name.startsWith('xl/')) parts[name] = prefixed(parts[name]!.replace(/<\?xml[^>]*>/, ''));
        }
      },
    });
    const table = await readTableFile('sdk.xlsx', bytes);
    expect(table.sheet).toBe('SDK');
    expect(table.records).toEqual([
      { line: 1, fields: ['GSM', 'Ad', 'Randevu'] },
      { line: 2, fields: ['5321234567', 'Ayşe', '15.03.2024'] },
    ]);
    // Strict OOXML: other namespaces, the same layout.
    const strictMain = 'http://purl.oclc.org/ooxml/spreadsheetml/main';
    const strictRelationships = 'http://purl.oclc.org/ooxml/officeDocument/relationships';
    const parts = packageParts({
      sheets: [
        {
          name: 'Strict',
          data: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>5321234567</v></c></row>',
        },
      ],
      sharedStrings: ['GSM'],
    });
    for (const name of Object.keys(parts)) {
      parts[name] = parts[name]!.replaceAll(MAIN, strictMain).replaceAll(
        OFFICE_RELATIONSHIPS,
        strictRelationships,
      );
    }
    expect((await readTableFile('strict.xlsx', await zipOf(parts))).records).toEqual([
      { line: 1, fields: ['GSM', '5321234567'] },
    ]);
  });

  it('gives an empty shared string its place, so that no later string moves to another row', async () => {
    const strings = `<?xml version="1.0"?><sst xmlns="${MAIN}"><si><t>GSM</t></si><si><t>Ad</t></si><si/><si><t/></si><si><t xml:space="preserve"> Ayşe </t></si><si><r><t>Can</t></r><r><rPr><b/></rPr><t xml:space="preserve"> Işık</t></r><rPh sb="0" eb="1"><t>カン</t></rPh></si></sst>`;
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Liste',
          data:
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
            '<row r="2"><c r="A2"><v>5321234567</v></c><c r="B2" t="s"><v>2</v></c></row>' +
            '<row r="3"><c r="A3"><v>5331234567</v></c><c r="B3" t="s"><v>3</v></c></row>' +
            '<row r="4"><c r="A4"><v>5341234567</v></c><c r="B4" t="s"><v>4</v></c></row>' +
            '<row r="5"><c r="A5"><v>5351234567</v></c><c r="B5" t="s"><v>5</v></c></row>',
        },
      ],
      sharedStrings: strings,
    });
    const table = await readTableFile('liste.xlsx', bytes);
    expect(table.records).toEqual([
      { line: 1, fields: ['GSM', 'Ad'] },
      { line: 2, fields: ['5321234567'] },
      { line: 3, fields: ['5331234567'] },
      { line: 4, fields: ['5341234567', 'Ayşe'] },
      { line: 5, fields: ['5351234567', 'Can Işık'] },
    ]);
  });

  it('finds the shared strings through the workbook’s relationships, under any name and path', async () => {
    const spec = {
      sheets: [
        { name: 'Liste', data: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' },
      ],
      sharedStrings: ['GSM', 'Ad'],
    };
    for (const [workbookPath, sharedStringsPath] of [
      ['xl/workbook.xml', 'strings.xml'],
      ['xl/workbook.xml', '/xl/Shared/Strings1.xml'],
      ['xl/workbook.xml', '../other/strings.xml'],
      ['book/main.xml', 'sst.xml'],
    ] as const) {
      const parts = packageParts({ ...spec, workbookPath, sharedStringsPath });
      if (sharedStringsPath.startsWith('../')) {
        // A relative target up one folder: the part lives at the package's other/strings.xml.
        parts['other/strings.xml'] = parts['xl/../other/strings.xml']!;
        delete parts['xl/../other/strings.xml'];
      }
      const table = await readTableFile('liste.xlsx', await zipOf(parts));
      expect(table.records, `${workbookPath} → ${sharedStringsPath}`).toEqual([
        { line: 1, fields: ['GSM', 'Ad'] },
      ]);
    }
  });

  it('reads _xHHHH_ escapes as the characters they stand for, and _x005F_ as an underscore', async () => {
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Liste',
          data: `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>${escapeXml('Kat_x0020_2')}</t></is></c><c r="D1" t="str"><f>A1</f><v>Ali_x000D__x000A_Veli</v></c></row>`,
        },
      ],
      sharedStrings: ['Ayşe_x000D_', 'kod_x005F_x000D_'],
    });
    const table = await readTableFile('liste.xlsx', bytes);
    expect(table.records).toEqual([{ line: 1, fields: ['Ayşe', 'kod_x000D_', 'Kat 2', 'Ali\r\nVeli'] }]);
  });

  it('reads a line break written as the bytes CR LF or CR as XML does, as one LF; &#13; and _x000D_ as a CR', async () => {
    // Excel writes a cell's CR as _x000D_ and keeps the line break after it as the bytes CR LF (calamine's
    // has_x000D_.xlsx): XML 1.0 §2.11 reads those as LF, so the cell is CR LF, as openpyxl reads it.
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Adresler',
          data:
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>' +
            '<c r="C1" t="inlineStr"><is><t>Kat 2\r\nDaire 5</t></is></c>' +
            '<c r="D1" t="inlineStr"><is><r><t xml:space="preserve">Kat 3\r</t></r><r><t>Daire 6</t></r></is></c>' +
            '<c r="E1" t="str"><f>A1</f><v>Ali\r\nVeli</v></c><c r="F1" t="inlineStr"><is><t>Ali&#13;&#10;Veli</t></is></c></row>',
        },
      ],
      sharedStrings:
        '<sst xmlns="' +
        MAIN +
        '"><si><t>Bursa Merkez_x000D_\r\nOsmangazi</t></si><si><t>Ev\rİş</t></si></sst>',
    });
    const table = await readTableFile('adresler.xlsx', bytes);
    expect(table.records).toEqual([
      {
        line: 1,
        fields: [
          'Bursa Merkez\r\nOsmangazi',
          'Ev\nİş',
          'Kat 2\nDaire 5',
          'Kat 3\nDaire 6',
          'Ali\nVeli',
          'Ali\r\nVeli',
        ],
      },
    ]);
  });

  it('reads text in CDATA sections, in inline and shared strings, as it stands: no references, markup as text', async () => {
    const cdata = (text: string) => `<![CDATA[${text}]]>`;
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Liste',
          data:
            `<row r="1"><c r="A1" t="inlineStr"><is><t>${cdata('Ad Soyad')}</t></is></c><c r="B1" t="inlineStr"><is><t>${cdata('Cep Telefonu')}</t></is></c></row>` +
            `<row r="2"><c r="A2" t="inlineStr"><is><t>${cdata('Çağrı &amp; </t></is></c> Işık')}</t></is></c><c r="B2"><v>5321234567</v></c></row>` +
            `<row r="3"><c r="A3" t="inlineStr"><is><t>Ayşe ${cdata('<Yılmaz>')} &amp; Can</t></is></c><c r="B3"><v>5331234567</v></c></row>` +
            '<row r="4"><c r="A4" t="s"><v>0</v></c><c r="B4" t="s"><v>1</v></c></row>',
        },
      ],
      sharedStrings: `<sst xmlns="${MAIN}"><si><t>${cdata('Veli </si> Kaya')}</t></si><si><t>${cdata('5341234567')}</t></si></sst>`,
    });
    const table = await readTableFile('liste.xlsx', bytes);
    expect(table.records).toEqual([
      { line: 1, fields: ['Ad Soyad', 'Cep Telefonu'] },
      { line: 2, fields: ['Çağrı &amp; </t></is></c> Işık', '5321234567'] },
      { line: 3, fields: ['Ayşe <Yılmaz> & Can', '5331234567'] },
      { line: 4, fields: ['Veli </si> Kaya', '5341234567'] },
    ]);
  });

  it('shows a General number with a fraction as Turkish Excel does: a decimal comma, at most 10 digits', async () => {
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Borçlar',
          data:
            '<row r="1"><c r="A1"><v>1087.5</v></c><c r="B1"><v>1.0413926851582251</v></c><c r="C1"><v>-0.25</v></c>' +
            '<c r="D1"><v>5321234567</v></c><c r="E1"><v>5.321234567E9</v></c></row>',
        },
      ],
    });
    const table = await readTableFile('borclar.xlsx', bytes);
    expect(table.records[0]!.fields).toEqual([
      '1087,5',
      '1,041392685',
      '-0,25',
      // A whole number keeps every digit, however it is written, as a phone number must (a rule of this product).
      '5321234567',
      '5321234567',
    ]);
  });

  it('reads every cell type: strings, formula strings, booleans, errors, ISO dates, numbers in their format', async () => {
    const styles = `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0.00"/></numFmts><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="20"/></cellXfs></styleSheet>`;
    const row =
      '<c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>iç</t></is></c><c r="C1" t="str"><f>B1</f><v>formül</v></c>' +
      '<c r="D1" t="b"><v>1</v></c><c r="E1" t="e"><v>#DIV/0!</v></c><c r="F1" t="d" s="1"><v>2024-03-15T00:00:00</v></c>' +
      '<c r="G1" s="1"><v>45366</v></c><c r="H1" s="2"><v>1087.5</v></c><c r="I1" s="3"><v>0.5625</v></c><c r="J1"><v>5321234567</v></c>';
    for (const [date1904, date] of [
      [undefined, '15.03.2024'],
      ['1', '16.03.2028'],
      ['true', '16.03.2028'],
    ] as const) {
      const bytes = await packageOf({
        sheets: [{ name: 'Tipler', data: `<row r="1">${row}</row>` }],
        sharedStrings: ['paylaşılan'],
        styles,
        ...(date1904 ? { date1904 } : {}),
      });
      const table = await readTableFile('tipler.xlsx', bytes);
      expect(table.records[0]!.fields, `date1904=${date1904}`).toEqual([
        'paylaşılan',
        'iç',
        'formül',
        'DOĞRU',
        '#SAYI/0!',
        // An ISO date cell is the day it names whatever the date system; a serial moves with the system.
        '15.03.2024',
        date,
        '1.087,50',
        '13:30',
        '5321234567',
      ]);
    }
  });
});
