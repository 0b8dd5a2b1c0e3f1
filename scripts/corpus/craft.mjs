/**
 * Workbooks no writer on this machine makes but real ones do, made by rewriting xlsxwriter's file part by part
 * (jszip): what openpyxl reads of each is the truth, as for every other file of the corpus.
 */
import JSZip from 'jszip';

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

async function rewrite(bytes, change) {
  const zip = await JSZip.loadAsync(bytes);
  await change(zip);
  // A fixed date on every entry: the same input gives the same bytes.
  for (const file of Object.values(zip.files)) file.date = new Date(Date.UTC(2024, 2, 1));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function edit(zip, name, change) {
  const text = await zip.file(name).async('string');
  zip.file(name, change(text));
}

/** Rows and cells without `r=` (and no <dimension>): what Power BI, Dynamics and database exporters stream. */
export const withoutReferences = (bytes) =>
  rewrite(bytes, (zip) =>
    edit(zip, 'xl/worksheets/sheet1.xml', (xml) =>
      xml
        .replace(/<dimension [^>]*\/>/, '')
        .replace(/<(row|c) ([^>]*?)\br="[A-Z]*\d+"/g, '<$1 $2')
        .replace(/<(row|c) +/g, '<$1 ')
        .replace(/<(row|c) >/g, '<$1>'),
    ),
  );

/** Every SpreadsheetML element as `x:name`, the namespace bound to that prefix: the Open XML SDK's way. */
export const withPrefixedElements = (bytes) =>
  rewrite(bytes, async (zip) => {
    for (const name of [
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
    ]) {
      await edit(zip, name, (xml) =>
        xml
          .replace(/<(\/?)([A-Za-z][\w.-]*)(?=[\s>/])/g, '<$1x:$2')
          .replace(`xmlns="${MAIN_NS}"`, `xmlns:x="${MAIN_NS}"`),
      );
    }
  });

/**
 * A self-closing `<si/>` among the shared strings (an empty string, as some writers store it): the sheet's
 * indexes past it move up by one, as a writer that emits it numbers them.
 */
export const withEmptySharedString = (bytes, at = 3) =>
  rewrite(bytes, async (zip) => {
    await edit(zip, 'xl/sharedStrings.xml', (xml) => {
      let index = 0;
      return xml.replace(/<si>/g, (si) => (index++ === at ? `<si/>${si}` : si));
    });
    await edit(zip, 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace(/(<c [^>]*t="s"[^>]*><v>)(\d+)(<\/v>)/g, (_, open, n, close) => {
        const i = Number(n);
        return `${open}${i >= at ? i + 1 : i}${close}`;
      }),
    );
  });

/** The shared strings under another name, found through the workbook's relationships (and content types). */
export const withRenamedSharedStrings = (bytes) =>
  rewrite(bytes, async (zip) => {
    const strings = await zip.file('xl/sharedStrings.xml').async('uint8array');
    zip.remove('xl/sharedStrings.xml');
    zip.file('xl/strings/table1.xml', strings);
    await edit(zip, 'xl/_rels/workbook.xml.rels', (xml) =>
      xml.replace(/Target="(\/xl\/)?sharedStrings.xml"/, 'Target="strings/table1.xml"'),
    );
    await edit(zip, '[Content_Types].xml', (xml) =>
      xml.replace('PartName="/xl/sharedStrings.xml"', 'PartName="/xl/strings/table1.xml"'),
    );
  });

/**
 * `_xHHHH_` escapes in the shared strings (ECMA-376 Part 1, 22.4.2.4): a capital İ written as `_x0130_`, and a
 * carriage return left at the end of a city pasted from Windows text, `_x000D_`. One address keeps its line
 * break as the bytes CR LF after the escape, as in calamine's tests/has_x000D_.xlsx: XML reads a literal CR LF
 * as LF (XML 1.0, 2.11), so the cell is "…_x000D_" + LF, i.e. CR LF, not CR CR LF.
 */
export const withEscapes = (bytes) =>
  rewrite(bytes, (zip) =>
    edit(zip, 'xl/sharedStrings.xml', (xml) =>
      xml
        .replace(/İ/g, '_x0130_')
        .replace(/<t>(Ankara|Bursa)<\/t>/g, '<t>$1_x000D_</t>')
        .replace('Bursa Merkez_x000D_\nNo: 4', 'Bursa Merkez_x000D_\r\nNo: 4'),
    ),
  );

/** Inline strings in CDATA sections (`<is><t><![CDATA[…]]></t></is>`), as some Java and .NET exporters write. */
export const withCdataInlineStrings = (bytes) =>
  rewrite(bytes, (zip) =>
    edit(zip, 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace(/<is><t>([^<]*)<\/t><\/is>/g, '<is><t><![CDATA[$1]]></t></is>'),
    ),
  );
