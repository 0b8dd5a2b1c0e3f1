import ExcelJS from 'exceljs';
import fc from 'fast-check';
import JSZip from 'jszip';
import { format as numfmt } from 'numfmt';
import { describe, expect, it } from 'vitest';
import {
  displayedNumber,
  isGeneral,
  type NumberFormat,
  readCellFormats,
} from '../../src/tables/xlsx/number-format.js';

const DAY_MS = 86_400_000;

/**
 * The serial Excel stores for a calendar date, worked out from the calendar alone: days since 1899-12-30
 * in the 1900 system, except before 1900-03-01, where Excel counts a 29 February 1900 that never was
 * (Microsoft KB 214326) and so is one day behind; days since 1904-01-01 in the 1904 system.
 */
function serialOf(year: number, month: number, day: number, system: 1900 | 1904 = 1900): number {
  const utc = Date.UTC(year, month - 1, day);
  if (system === 1904) return (utc - Date.UTC(1904, 0, 1)) / DAY_MS;
  if (utc < Date.UTC(1900, 2, 1)) return (utc - Date.UTC(1899, 11, 31)) / DAY_MS;
  return (utc - Date.UTC(1899, 11, 30)) / DAY_MS;
}

const two = (n: number) => String(n).padStart(2, '0');
const timeOfDay = (hours: number, minutes: number, seconds = 0) =>
  (hours * 3600 + minutes * 60 + seconds) / 86_400;

const custom = (code: string): NumberFormat => ({ id: 164, code });

/** A styles.xml whose cell style i has the format id ids[i], none of them defined by the file. */
function stylesWithBuiltins(ids: number[]): string {
  const xfs = ids.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="${ids.length}">${xfs}</cellXfs></styleSheet>`;
}

function builtin(id: number): NumberFormat {
  return readCellFormats(stylesWithBuiltins([0, id])).of(1);
}

describe('dates: serial to calendar date, in UTC arithmetic', () => {
  const knownDates: [number, number, number][] = [
    [1900, 1, 1],
    [1900, 1, 31],
    [1900, 2, 28],
    [1900, 3, 1],
    [1900, 12, 31],
    [1904, 1, 1],
    [1904, 2, 29],
    [1970, 1, 1],
    [1999, 12, 31],
    [2000, 2, 29],
    [2024, 2, 29],
    [2024, 3, 15],
    [2024, 12, 31],
    [2025, 1, 1],
    [2100, 3, 1],
    [9999, 12, 31],
  ];

  it.each(knownDates)('%i-%i-%i in the 1900 system, built-in 14, as dd.mm.yyyy', (year, month, day) => {
    const text = displayedNumber(serialOf(year, month, day), builtin(14), false);
    expect(text).toBe(`${two(day)}.${two(month)}.${year}`);
  });

  it.each(knownDates.filter(([year]) => year >= 1904))('%i-%i-%i in the 1904 system', (year, month, day) => {
    const text = displayedNumber(serialOf(year, month, day, 1904), builtin(14), true);
    expect(text).toBe(`${two(day)}.${two(month)}.${year}`);
  });

  it('reads the serial from the issue, and the anchors of both systems', () => {
    expect(displayedNumber(45366, builtin(14), false)).toBe('15.03.2024');
    expect(displayedNumber(1, builtin(14), false)).toBe('01.01.1900');
    expect(displayedNumber(59, builtin(14), false)).toBe('28.02.1900');
    // Excel's fictitious leap day, kept for compatibility with Lotus 1-2-3 (KB 214326).
    expect(displayedNumber(60, builtin(14), false)).toBe('29.02.1900');
    expect(displayedNumber(61, builtin(14), false)).toBe('01.03.1900');
    expect(displayedNumber(0, builtin(14), true)).toBe('01.01.1904');
    expect(displayedNumber(45366 - 1462, builtin(14), true)).toBe('15.03.2024');
  });

  it('reads the same serial in each system of the workbook it came from, in any order', () => {
    const serial = serialOf(2024, 3, 15, 1904);
    const in1900System = new Date(Date.UTC(1899, 11, 30) + serial * DAY_MS);
    const expected1900 = `${two(in1900System.getUTCDate())}.${two(in1900System.getUTCMonth() + 1)}.${in1900System.getUTCFullYear()}`;
    for (let round = 0; round < 2; round++) {
      expect(displayedNumber(serial, builtin(14), true)).toBe('15.03.2024');
      expect(displayedNumber(serial, builtin(14), false)).toBe(expected1900);
    }
  });

  it('gives weekdays before March 1900 as Excel does: serial 1 is a Sunday', () => {
    // 1900-01-01 was a Monday, but Excel's extra day puts every earlier serial one weekday back.
    expect(displayedNumber(1, custom('dddd'), false)).toBe('Pazar');
    expect(displayedNumber(61, custom('dddd'), false)).toBe('Perşembe');
  });

  it('does not depend on the machine time zone', () => {
    const original = process.env.TZ;
    try {
      for (const zone of ['Pacific/Kiritimati', 'America/St_Johns', 'Europe/Istanbul', 'Pacific/Pago_Pago']) {
        process.env.TZ = zone;
        expect(displayedNumber(45366 + timeOfDay(23, 30), builtin(22), false)).toBe('15.03.2024 23:30');
        expect(displayedNumber(45366 + timeOfDay(0, 15), builtin(22), false)).toBe('15.03.2024 00:15');
      }
    } finally {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    }
  });

  it('shows a negative serial in a date format as the number, never a date before 1900', () => {
    expect(displayedNumber(-1, builtin(14), false)).toBe('-1');
    expect(displayedNumber(-1, builtin(14), true)).toBe('-1');
  });

  it('rounds a time to the second before it is shown, carrying into the next day', () => {
    const justBeforeMidnight = 45366 + (86_400 - 0.4) / 86_400;
    expect(displayedNumber(justBeforeMidnight, builtin(22), false)).toBe('16.03.2024 00:00');
  });
});

describe('built-in formats, Turkish convention', () => {
  const when = serialOf(2024, 3, 15) + timeOfDay(13, 30, 15);
  const cases: [number, number, string][] = [
    [14, when, '15.03.2024'],
    [15, when, '15.Mar.24'],
    [16, when, '15.Mar'],
    [17, when, 'Mar.24'],
    [18, when, '1:30 ÖS'],
    [18, serialOf(2024, 3, 15) + timeOfDay(9, 5), '9:05 ÖÖ'],
    [19, when, '1:30:15 ÖS'],
    [20, when, '13:30'],
    [21, when, '13:30:15'],
    [22, when, '15.03.2024 13:30'],
    [45, timeOfDay(1, 2, 3), '02:03'],
    [46, 1.5 + timeOfDay(0, 2, 3), '36:02:03'],
    [47, timeOfDay(0, 2, 3.4), '02:03,4'],
    [1, 1087.5, '1088'],
    [2, 1087.456, '1087,46'],
    [3, 1087.5, '1.088'],
    [4, 1087.5, '1.087,50'],
    [9, 0.125, '%13'],
    [10, 0.0825, '%8,25'],
    [11, 12345, '1,23E+04'],
    [12, 1.25, '1 1/4'],
    [13, 1.3, '1  3/10'],
    [37, -1234, '-1.234'],
    [39, -1234.5, '-1.234,50'],
    [48, 12345, '12,3E+3'],
    [49, 5321234567, '5321234567'],
  ];

  it.each(cases)('id %i shows %d as %s', (id, value, expected) => {
    expect(displayedNumber(value, builtin(id), false)).toBe(expected);
  });

  it('keeps elapsed time ([h]) the same in both date systems', () => {
    expect(displayedNumber(1.5, builtin(46), true)).toBe('36:00:00');
  });

  it('reads an id that no built-in has as General', () => {
    expect(builtin(100)).toEqual({ id: 100, code: 'General' });
    expect(displayedNumber(45366, builtin(100), false)).toBe('45366');
  });
});

describe('custom date codes', () => {
  const when = serialOf(2024, 3, 15) + timeOfDay(13, 5, 9);
  const cases: [string, string][] = [
    ['dd/mm/yyyy', '15.03.2024'],
    ['d/m/yy', '15.3.24'],
    ['dd\\/mm\\/yyyy', '15/03/2024'],
    ['dd"/"mm', '15/03'],
    ['yyyy-mm-dd', '2024-03-15'],
    ['dd.mm.yyyy hh:mm:ss', '15.03.2024 13:05:09'],
    ['h:m:s', '13:5:9'],
    ['m', '3'],
    ['mm:ss', '05:09'],
    ['hh:mm AM/PM', '01:05 ÖS'],
    ['d mmmm yyyy dddd', '15 Mart 2024 Cuma'],
    ['[$-41F]d mmmm yyyy dddd;@', '15 Mart 2024 Cuma'],
    ['[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy', '15 Mart 2024 Cuma'],
    ['[Red]dd.mm.yyyy', '15.03.2024'],
    ['"Randevu: "dd.mm.yyyy" saat "hh:mm', 'Randevu: 15.03.2024 saat 13:05'],
    ['dd/mm/yyyy;@', '15.03.2024'],
  ];

  it.each(cases)('%s shows %s', (code, expected) => {
    expect(displayedNumber(when, custom(code), false)).toBe(expected);
  });

  it('names months and weekdays in Turkish', () => {
    const months = Array.from({ length: 12 }, (_, i) =>
      displayedNumber(serialOf(2024, i + 1, 15), custom('mmmm'), false),
    );
    expect(months).toEqual([
      'Ocak',
      'Şubat',
      'Mart',
      'Nisan',
      'Mayıs',
      'Haziran',
      'Temmuz',
      'Ağustos',
      'Eylül',
      'Ekim',
      'Kasım',
      'Aralık',
    ]);
    // 2024-01-01 was a Monday.
    const week = Array.from({ length: 7 }, (_, i) =>
      displayedNumber(serialOf(2024, 1, 1 + i), custom('dddd'), false),
    );
    expect(week).toEqual(['Pazartesi', 'Salı', 'Çarşamba', 'Perşembe', 'Cuma', 'Cumartesi', 'Pazar']);
  });
});

describe('amounts and other numbers', () => {
  const cases: [string, number, string][] = [
    ['#,##0.00', 1087.5, '1.087,50'],
    ['#,##0.00', -1087.5, '-1.087,50'],
    ['#,##0.00', 1234567.891, '1.234.567,89'],
    // Excel rounds the decimal it shows (15 digits), not the binary double: 2.345 is 2.34499… stored.
    ['0.00', 2.345, '2,35'],
    ['0.00', -2.345, '-2,35'],
    ['0.00', 1.005, '1,01'],
    ['0', 2.5, '3'],
    ['0', -2.5, '-3'],
    ['0', 5321234567, '5321234567'],
    ['0000000000', 532123456, '0532123456'],
    ['#,##0.00 "₺"', 1087.5, '1.087,50 ₺'],
    ['#,##0.00\\ "TL"', 1087.5, '1.087,50 TL'],
    ['[$₺-41F]#,##0.00', 1087.5, '₺1.087,50'],
    ['#,##0.00 [$TL-41F]', 1087.5, '1.087,50 TL'],
    ['#,##0.00;(#,##0.00)', -5, '(5,00)'],
    ['0;-0;"sıfır"', 0, 'sıfır'],
    ['[Red]#,##0;[Blue]-#,##0', -1234, '-1.234'],
    ['[>=1000]#,##0" bin";0', 1500, '1.500 bin'],
    ['0.0%', 0.1234, '12,3%'],
    ['0.00E+00', 0.000123, '1,23E-04'],
    ['(###) ### ## ##', 5321234567, '(532) 123 45 67'],
    ['@', 905321234567, '905321234567'],
  ];

  it.each(cases)('%s shows %d as %s', (code, value, expected) => {
    expect(displayedNumber(value, custom(code), false)).toBe(expected);
  });

  it('shows a code Excel would not accept as General rather than failing', () => {
    expect(displayedNumber(1087.5, custom('0.00[Renk10'), false)).toBe('1087,5');
  });
});

describe('General', () => {
  const general: NumberFormat = { id: 0, code: 'General' };

  it('shows every digit of a whole number, a phone number above all (a rule of this product)', () => {
    expect(displayedNumber(5321234567, general, false)).toBe('5321234567');
    // Excel's General would show 9,05321E+11 here: a message must carry the number itself.
    expect(displayedNumber(905321234567, general, false)).toBe('905321234567');
    expect(displayedNumber(-42, general, false)).toBe('-42');
  });

  it('shows other numbers with a decimal comma and at most 10 significant digits', () => {
    expect(displayedNumber(1087.5, general, false)).toBe('1087,5');
    expect(displayedNumber(0.1 + 0.2, general, false)).toBe('0,3');
    expect(displayedNumber(1 / 3, general, false)).toBe('0,333333333');
    expect(displayedNumber(12345678.12345, general, false)).toBe('12345678,12');
    expect(displayedNumber(-0.5, general, false)).toBe('-0,5');
    expect(displayedNumber(123456789012.5, general, false)).toBe('1,23457E+11');
  });

  it('knows General in any case and an empty code as General', () => {
    expect(isGeneral({ id: 0, code: 'General' })).toBe(true);
    expect(isGeneral({ id: 164, code: 'GENERAL' })).toBe(true);
    expect(isGeneral({ id: 164, code: '' })).toBe(true);
    expect(isGeneral({ id: 14, code: 'dd.mm.yyyy' })).toBe(false);
    expect(isGeneral({ id: 49, code: '@' })).toBe(false);
  });
});

describe('the fast paths equal the library they stand in for', () => {
  const TURKISH = { locale: 'tr' };
  const general: NumberFormat = { id: 0, code: 'General' };
  const whole: NumberFormat = { id: 1, code: '0' };
  const notWhole = (value: number) => !Number.isInteger(value);

  it('General, whole numbers Excel shows in full', () => {
    fc.assert(
      fc.property(fc.integer({ min: -9_999_999_999, max: 99_999_999_999 }), (value) => {
        expect(displayedNumber(value, general, false)).toBe(numfmt('General', value, TURKISH));
      }),
      { numRuns: 2000 },
    );
  });

  it('General, other numbers', () => {
    const decimals = fc
      .tuple(fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }), fc.integer({ min: 1, max: 14 }))
      .map(([digits, scale]) => digits / 10 ** scale);
    const doubles = fc.double({ min: -1e12, max: 1e12, noNaN: true });
    const tiny = fc.double({ min: -1e-3, max: 1e-3, noNaN: true });
    fc.assert(
      // Whole numbers are the first property's, or above 11 digits the product's own rule.
      fc.property(fc.oneof(decimals, doubles, tiny).filter(notWhole), (value) => {
        expect(displayedNumber(value, general, false)).toBe(numfmt('General', value, TURKISH));
      }),
      { numRuns: 5000 },
    );
  });

  it('"0", including halves and values next to them', () => {
    const halves = fc
      .integer({ min: -1_000_000_000, max: 1_000_000_000 })
      .chain((n) =>
        fc.constantFrom(n + 0.5, n - 0.5, n + 0.49999999999999994, n + 0.5000000000000001, n + 0.4999999999),
      );
    const doubles = fc.double({ min: -1e16, max: 1e16, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(fc.oneof(halves, doubles), (value) => {
        expect(displayedNumber(value, whole, false)).toBe(numfmt('0', value, TURKISH));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('readCellFormats', () => {
  it('reads every style as General without a styles part', () => {
    const formats = readCellFormats(undefined);
    expect(formats.of(0)).toEqual({ id: 0, code: 'General' });
    expect(formats.of(7)).toEqual({ id: 0, code: 'General' });
  });

  it('maps cell styles to their formats, custom codes decoded, only from cellXfs and numFmts', () => {
    const styles = `<?xml version="1.0" encoding="UTF-8"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
  <numFmts count="3">
    <numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>
    <numFmt numFmtId="165" formatCode="#,##0.00\\ &quot;₺&quot;"/>
    <numFmt numFmtId='166' formatCode='[&gt;=100]0;"az"'/>
  </numFmts>
  <cellStyleXfs count="2"><xf numFmtId="165"/><xf numFmtId="164"/></cellStyleXfs>
  <cellXfs count="6">
    <xf numFmtId="0" fontId="0" xfId="0"/>
    <xf numFmtId="164" fontId="0" xfId="0" applyNumberFormat="1"/>
    <xf numFmtId="165" fontId="0" xfId="0" applyNumberFormat="1"><alignment horizontal="left"/></xf>
    <xf numFmtId="14" fontId="0" xfId="0"/>
    <xf fontId="1" xfId="0"/>
    <xf numFmtId="166" xfId="0"/>
  </cellXfs>
  <dxfs count="1"><dxf><numFmt numFmtId="164" formatCode="0.000"/></dxf></dxfs>
</styleSheet>`;
    const formats = readCellFormats(styles);
    expect(formats.of(0)).toEqual({ id: 0, code: 'General' });
    expect(formats.of(1)).toEqual({ id: 164, code: 'dd/mm/yyyy' });
    expect(formats.of(2)).toEqual({ id: 165, code: '#,##0.00\\ "₺"' });
    expect(formats.of(3)).toEqual({ id: 14, code: 'dd.mm.yyyy' });
    expect(formats.of(4)).toEqual({ id: 0, code: 'General' });
    expect(formats.of(5)).toEqual({ id: 166, code: '[>=100]0;"az"' });
    expect(formats.of(6)).toEqual({ id: 0, code: 'General' });
    expect(displayedNumber(1087.5, formats.of(2), false)).toBe('1.087,50 ₺');
    expect(displayedNumber(45366, formats.of(1), false)).toBe('15.03.2024');
  });

  it('reads namespace-prefixed styles as the Open XML SDK writes them', () => {
    const styles = `<?xml version="1.0" encoding="utf-8"?>
<x:styleSheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<x:numFmts count="1"><x:numFmt numFmtId="164" formatCode="dd.mm.yyyy\\ hh:mm" /></x:numFmts>
<x:cellStyleXfs count="1"><x:xf numFmtId="0" /></x:cellStyleXfs>
<x:cellXfs count="3"><x:xf numFmtId="0" /><x:xf numFmtId="164" applyNumberFormat="1" /><x:xf numFmtId="4"></x:xf></x:cellXfs>
</x:styleSheet>`;
    const formats = readCellFormats(styles);
    expect(displayedNumber(45366 + timeOfDay(9, 45), formats.of(1), false)).toBe('15.03.2024 09:45');
    expect(displayedNumber(1087.5, formats.of(2), false)).toBe('1.087,50');
  });

  async function writtenByExceljs(date1904: boolean) {
    const workbook = new ExcelJS.Workbook();
    workbook.properties.date1904 = date1904;
    const sheet = workbook.addWorksheet('Liste');
    sheet.getCell('A1').value = new Date(Date.UTC(2024, 2, 15));
    sheet.getCell('A1').numFmt = 'dd/mm/yyyy';
    sheet.getCell('A2').value = 1087.5;
    sheet.getCell('A2').numFmt = '#,##0.00 "₺"';
    sheet.getCell('A3').value = timeOfDay(14, 30);
    sheet.getCell('A3').numFmt = 'hh:mm';
    sheet.getCell('A4').value = 5321234567;
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    const stylesXml = await zip.file('xl/styles.xml')!.async('string');
    const sheetXml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    const workbookXml = await zip.file('xl/workbook.xml')!.async('string');
    const formats = readCellFormats(stylesXml);
    const fileSays1904 = /date1904="(1|true)"/.test(workbookXml);
    const shown = new Map<string, string>();
    for (const [, ref, style, value] of sheetXml.matchAll(
      /<c r="([A-Z]+\d+)"(?: s="(\d+)")?[^>]*><v>([^<]+)<\/v>/g,
    )) {
      shown.set(ref!, displayedNumber(Number(value), formats.of(Number(style ?? 0)), fileSays1904));
    }
    return shown;
  }

  it.each([false, true])('shows what a workbook exceljs wrote shows (1904 system: %s)', async (date1904) => {
    const shown = await writtenByExceljs(date1904);
    expect(Object.fromEntries(shown)).toEqual({
      A1: '15.03.2024',
      A2: '1.087,50 ₺',
      A3: '14:30',
      A4: '5321234567',
    });
  });
});
