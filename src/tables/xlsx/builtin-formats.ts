/**
 * Excel's built-in number formats: a cell whose style names one of these ids carries no format code in
 * styles.xml, so the code comes from this table. The ids and their codes are those of ECMA-376 Part 1
 * §18.8.30 (numFmt); the ids the standard leaves to the locale (5–8, 14–22, 37–44) are written the way
 * a Turkish Excel shows them, which is this product's convention for everything locale-dependent:
 * `dd.mm.yyyy`, 24-hour `hh:mm`, a minus sign rather than parentheses. Where the standard gives no Turkish
 * form, the codes follow numfmt's Turkish locale data (getFormatFromId(id, 'tr')).
 *
 * 9 and 10, the percent styles, put the sign first as Turkish does (`%50`, CLDR's Turkish percent pattern, what
 * Intl.NumberFormat('tr', { style: 'percent' }) writes): numfmt's Turkish locale keeps the standard's `0%`, which
 * writes `50%`. A custom `0%` code is the sheet's own choice and stays `50%`.
 *
 * 47 is `mm:ss.0`: the standard prints `mmss.0`, a misprint; Excel, LibreOffice, SheetJS and numfmt all
 * show minutes and seconds with a colon.
 *
 * Ids 23–36 and 50–163 without a code of their own belong to East Asian and Thai locales; they read as
 * General here.
 */
const BUILTIN_FORMAT_CODES: ReadonlyMap<number, string> = new Map([
  [0, 'General'],
  [1, '0'],
  [2, '0.00'],
  [3, '#,##0'],
  [4, '#,##0.00'],
  [5, '₺#,##0;-₺#,##0'],
  [6, '₺#,##0;[Red]-₺#,##0'],
  [7, '₺#,##0.00;-₺#,##0.00'],
  [8, '₺#,##0.00;[Red]-₺#,##0.00'],
  [9, '%0'],
  [10, '%0.00'],
  [11, '0.00E+00'],
  [12, '# ?/?'],
  [13, '# ??/??'],
  [14, 'dd.mm.yyyy'],
  [15, 'd.mmm.yy'],
  [16, 'd.mmm'],
  [17, 'mmm.yy'],
  [18, 'h:mm AM/PM'],
  [19, 'h:mm:ss AM/PM'],
  [20, 'hh:mm'],
  [21, 'hh:mm:ss'],
  [22, 'dd.mm.yyyy hh:mm'],
  [37, '#,##0;-#,##0'],
  [38, '#,##0;[Red]-#,##0'],
  [39, '#,##0.00;-#,##0.00'],
  [40, '#,##0.00;[Red]-#,##0.00'],
  [41, '_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-'],
  [42, '_-₺* #,##0_-;-₺* #,##0_-;_-₺* "-"_-;_-@_-'],
  [43, '_-* #,##0.00_-;-* #,##0.00_-;_-* "-"??_-;_-@_-'],
  [44, '_-₺* #,##0.00_-;-₺* #,##0.00_-;_-₺* "-"??_-;_-@_-'],
  [45, 'mm:ss'],
  [46, '[h]:mm:ss'],
  [47, 'mm:ss.0'],
  [48, '##0.0E+0'],
  [49, '@'],
]);

/** The code of a built-in format id; General for an id no built-in has. */
export function builtinFormatCode(id: number): string {
  return BUILTIN_FORMAT_CODES.get(id) ?? 'General';
}
