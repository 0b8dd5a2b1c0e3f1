/**
 * Builds test/data/corpus/: recipient lists written by the programs offices use (openpyxl, xlsxwriter,
 * LibreOffice, Gnumeric, exceljs, SheetJS), the variants real writers make that none of those does (crafted from
 * xlsxwriter's file), what must be refused (.ods, .xls, a password), and workbooks Excel made, from Debian's
 * r-cran-openxlsx (scripts/corpus/public.mjs: from the package when it is at hand, else the committed copies). manifest.json says what each file is and
 * what the reader must make of it; each workbook's and CSV's truth (<file>.truth.json) is what openpyxl, or
 * Python's csv module, reads in it (scripts/corpus/truth.py), never what the app's reader reads.
 *
 * Needs Debian's python3-openpyxl, python3-xlsxwriter, python3-msoffcrypto-tool (to check encrypted.xlsx), libreoffice-calc-nogui and
 * gnumeric, and `npm ci` (exceljs, xlsx, jszip). Run: node scripts/corpus/build.mjs
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  withCdataInlineStrings,
  withEmptySharedString,
  withEscapes,
  withoutReferences,
  withPrefixedElements,
  withRenamedSharedStrings,
} from './craft.mjs';
import { encryptWorkbook } from './encrypt.mjs';
import { OPENXLSX_PACKAGE, publicWorkbooks } from './public.mjs';
import { HEADER, NOT_RECIPIENTS, RECIPIENTS } from './recipients.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const corpus = process.argv[2] ?? join(root, 'test', 'data', 'corpus');
// Debian's openpyxl and xlsxwriter are modules of Debian's Python; a python3 from pyenv or a venv has neither.
const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

/**
 * LibreOffice's CSV filter options: separator, quote and character set as numbers (rtl_TextEncoding in
 * include/rtl/textenc.h: 76 UTF-8, 36 Windows-1254, 27 IBM-857, 54 Apple Turkish), then the first line to write.
 */
const CSV_FILTER = 'Text - txt - csv (StarCalc)';

const work = mkdtempSync(join(tmpdir(), 'smsops-corpus-'));
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });

/** Every file of the corpus: how it was made, what must be read from it, and who reads its truth. */
const manifest = [];
const table = { mobileColumn: 'Cep Telefonu', recipients: RECIPIENTS.map((r) => r.msisdn) };
function add(file, writer, made, expect, truth = { reader: 'openpyxl' }) {
  manifest.push({ file, writer, made, truth, expect });
}

function writeSpec() {
  const path = join(work, 'spec.json');
  writeFileSync(
    path,
    JSON.stringify({ recipients: RECIPIENTS, notRecipients: NOT_RECIPIENTS, header: HEADER }),
  );
  return path;
}

function writePython(outdir) {
  const spec = writeSpec();
  run(PYTHON, [join(here, 'write_openpyxl.py'), spec, outdir]);
  run(PYTHON, [join(here, 'write_xlsxwriter.py'), spec, outdir]);
}

async function build() {
  // Taken before the corpus is cleared: without the Debian package, the committed copies are kept.
  const published = publicWorkbooks(corpus);
  rmSync(corpus, { recursive: true, force: true, maxRetries: 2 });
  execFileSync('mkdir', ['-p', corpus]);
  writePython(corpus);
  add(
    'openpyxl-basic.xlsx',
    'openpyxl',
    'built-in date formats 14 and 22, #,##0.00, landline before mobile',
    table,
  );
  add('openpyxl-1904.xlsx', 'openpyxl', '1904 date system, custom dd.mm.yyyy', table);
  add('openpyxl-hidden-first.xlsx', 'openpyxl', 'first sheet hidden (an old list), second active', table);
  add('openpyxl-veryhidden-first.xlsx', 'openpyxl', 'first sheet veryHidden (an old list)', table);
  add('openpyxl-chartsheet-first.xlsx', 'openpyxl', 'a chart sheet in first place', table);
  add(
    'openpyxl-active-second.xlsx',
    'openpyxl',
    'three visible worksheets, the second the active tab',
    table,
  );
  add('openpyxl-title-merged.xlsx', 'openpyxl', 'merged title row and a blank row above the header', table);
  add('openpyxl-offset.xlsx', 'openpyxl', 'blank rows and columns before the table (header at C4)', table);
  add(
    'openpyxl-mobil-no.xlsx',
    'openpyxl',
    '"Mobil No" number cells after an identity-number column, an amount in General',
    {
      ...table,
      mobileColumn: 'Mobil No',
    },
  );
  add('xlsxwriter-basic.xlsx', 'xlsxwriter', 'shared strings with _x000D_, formats dd.mm.yyyy and 22', table);
  add('xlsxwriter-inline-strings.xlsx', 'xlsxwriter', 'constant_memory mode: inline strings', table);

  run(process.execPath, [join(here, 'write-node.mjs'), corpus]);
  add(
    'exceljs-hidden-first-title.xlsx',
    'exceljs',
    'hidden first sheet, merged title row, dd.mm.yyyy hh:mm',
    table,
  );
  add('sheetjs.xlsx', 'SheetJS (npm xlsx)', 't="str" cells, no shared strings, 1980 zip dates', table);

  // xlsxwriter's file, not openpyxl's: openpyxl 3.0 writes inline strings, and three variants are of shared strings.
  const base = readFileSync(join(corpus, 'xlsxwriter-basic.xlsx'));
  const crafted = [
    ['crafted-no-refs.xlsx', withoutReferences, 'rows and cells without r= (streaming exporters)'],
    ['crafted-x-prefix.xlsx', withPrefixedElements, 'x:-prefixed elements (Open XML SDK)'],
    ['crafted-empty-si.xlsx', withEmptySharedString, 'a self-closing <si/> among the shared strings'],
    ['crafted-sst-renamed.xlsx', withRenamedSharedStrings, 'shared strings at xl/strings/table1.xml'],
    [
      'crafted-escapes.xlsx',
      withEscapes,
      '_x0130_ and _x000D_ escapes in shared strings, a literal CR LF after one',
    ],
  ];
  for (const [file, craft, made] of crafted) {
    writeFileSync(join(corpus, file), await craft(base));
    add(file, 'xlsxwriter, rewritten by scripts/corpus/craft.mjs', made, table);
  }
  const inline = readFileSync(join(corpus, 'xlsxwriter-inline-strings.xlsx'));
  writeFileSync(join(corpus, 'crafted-cdata.xlsx'), await withCdataInlineStrings(inline));
  add(
    'crafted-cdata.xlsx',
    'xlsxwriter, rewritten by scripts/corpus/craft.mjs',
    'inline strings in CDATA sections',
    table,
  );

  const plain = readFileSync(join(corpus, 'openpyxl-basic.xlsx'));
  writeFileSync(join(corpus, 'encrypted.xlsx'), encryptWorkbook(plain, 'Gizli.2024'));
  // An independent decrypter must give the workbook back, or the file is not what Excel would write.
  run('msoffcrypto-tool', ['-p', 'Gizli.2024', join(corpus, 'encrypted.xlsx'), join(work, 'decrypted.xlsx')]);
  if (!readFileSync(join(work, 'decrypted.xlsx')).equals(plain))
    throw new Error('encrypted.xlsx does not decrypt');
  add(
    'encrypted.xlsx',
    'scripts/corpus/encrypt.mjs',
    'openpyxl-basic.xlsx with a password to open (ECMA-376 agile)',
    {
      refusal: 'password',
    },
    { reader: 'none' },
  );

  libreoffice();
  gnumeric();

  const { name, version, distribution, upstream, licence, folder } = OPENXLSX_PACKAGE;
  for (const { file, original, sha256, application, made, bytes } of published) {
    writeFileSync(join(corpus, file), bytes);
    // Not recipient lists: what is checked is the sheet read and every cell's text against openpyxl.
    manifest.push({
      file,
      writer: application,
      made,
      source: {
        package: `Debian ${distribution} package ${name} ${version}`,
        path: `${folder}/${original}`,
        sha256,
        upstream,
        licence,
      },
      truth: { reader: 'openpyxl' },
      expect: { cellsOnly: true },
    });
  }

  writeFileSync(join(corpus, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  run(PYTHON, [join(here, 'truth.py'), corpus, corpus]);
  // Biome formats only inside the project: a corpus built elsewhere (a trial run) keeps JSON.stringify's layout.
  if (!relative(root, corpus).startsWith('..')) {
    run(join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', corpus]);
  }
  rmSync(work, { recursive: true, force: true });
}

function soffice(target, inputs) {
  const out = join(work, `lo-${manifest.length}`);
  run('soffice', [
    `-env:UserInstallation=file://${join(work, 'lo-profile')}`,
    '--headless',
    '--convert-to',
    target,
    '--outdir',
    out,
    ...inputs,
  ]);
  return (name) => join(out, name);
}

function libreoffice() {
  const basic = join(corpus, 'openpyxl-basic.xlsx');
  const withBreaks = join(corpus, 'xlsxwriter-basic.xlsx');
  let got = soffice('xlsx:Calc MS Excel 2007 XML', [basic]);
  copyFileSync(got('openpyxl-basic.xlsx'), join(corpus, 'libreoffice.xlsx'));
  add('libreoffice.xlsx', 'LibreOffice Calc', 'openpyxl-basic.xlsx saved as Excel 2007-365', table);

  got = soffice('ods', [basic]);
  copyFileSync(got('openpyxl-basic.ods'), join(corpus, 'libreoffice.ods'));
  copyFileSync(got('openpyxl-basic.ods'), join(corpus, 'libreoffice-ods-renamed.xlsx'));
  add(
    'libreoffice.ods',
    'LibreOffice Calc',
    'OpenDocument spreadsheet',
    { refusal: 'ods' },
    { reader: 'none' },
  );
  add(
    'libreoffice-ods-renamed.xlsx',
    'LibreOffice Calc',
    'the .ods renamed .xlsx',
    { refusal: 'ods' },
    { reader: 'none' },
  );

  got = soffice('xls:MS Excel 97', [basic]);
  copyFileSync(got('openpyxl-basic.xls'), join(corpus, 'libreoffice.xls'));
  copyFileSync(got('openpyxl-basic.xls'), join(corpus, 'libreoffice-xls-renamed.xlsx'));
  add(
    'libreoffice.xls',
    'LibreOffice Calc',
    'Excel 97-2003 workbook',
    { refusal: 'xls' },
    { reader: 'none' },
  );
  add(
    'libreoffice-xls-renamed.xlsx',
    'LibreOffice Calc',
    'the .xls renamed .xlsx',
    { refusal: 'xls' },
    { reader: 'none' },
  );

  const csvs = [
    [
      'libreoffice-utf8.csv',
      withBreaks,
      '44,34,76',
      'utf-8',
      ',',
      'UTF-8, comma; addresses with line breaks',
    ],
    [
      'libreoffice-1254-semicolon.csv',
      basic,
      '59,34,36',
      'cp1254',
      ';',
      'Windows-1254, semicolon (Turkish Excel)',
    ],
    ['libreoffice-cp857.csv', basic, '59,34,27', 'cp857', ';', 'IBM-857, Excel\'s "CSV (MS-DOS)" in Turkish'],
    [
      'libreoffice-mac-turkish.csv',
      basic,
      '59,34,54',
      'mac_turkish',
      ';',
      'Mac Turkish, Excel\'s "CSV (Macintosh)"',
    ],
  ];
  for (const [file, input, options, encoding, delimiter, made] of csvs) {
    got = soffice(`csv:${CSV_FILTER}:${options}`, [input]);
    copyFileSync(
      got(
        input
          .split('/')
          .pop()
          .replace(/\.xlsx$/, '.csv'),
      ),
      join(corpus, file),
    );
    const strict = encoding === 'utf-8' || encoding === 'cp1254';
    add(
      file,
      'LibreOffice Calc',
      `${made} (filter options ${options})`,
      { ...table, lettersOrRefusal: !strict },
      { reader: 'csv', encoding, delimiter },
    );
  }
  // Excel's "sep=;" first line, which tells Excel the separator: over LibreOffice's Windows-1254 file.
  const semicolon = readFileSync(join(corpus, 'libreoffice-1254-semicolon.csv'));
  writeFileSync(join(corpus, 'crafted-sep-line.csv'), Buffer.concat([Buffer.from('sep=;\r\n'), semicolon]));
  add(
    'crafted-sep-line.csv',
    'LibreOffice Calc, "sep=;" line added by scripts/corpus/build.mjs',
    "Excel's sep=; first line over a Windows-1254 semicolon CSV",
    table,
    { reader: 'csv', encoding: 'cp1254', delimiter: ';', skipLines: 1 },
  );
}

function gnumeric() {
  for (const [from, file, made] of [
    ['openpyxl-basic.xlsx', 'gnumeric.xlsx', 'openpyxl-basic.xlsx through ssconvert (Excel 2007 writer)'],
    [
      'openpyxl-title-merged.xlsx',
      'gnumeric-title-merged.xlsx',
      'openpyxl-title-merged.xlsx through ssconvert',
    ],
  ]) {
    run('ssconvert', ['--export-type=Gnumeric_Excel:xlsx2', join(corpus, from), join(corpus, file)]);
    add(file, 'Gnumeric ssconvert', made, table);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build();
  console.log(`${readdirSync(corpus).length} files in ${corpus}`);
}
