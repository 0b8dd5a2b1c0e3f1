/**
 * Workbooks made by Microsoft Excel (and one by writexl), from a public corpus: the test files of the R package
 * openxlsx as Debian ships them. What nothing on this machine writes: Excel's own parts (themes, printer
 * settings, threaded comments, pivot caches, frozen panes), Excel Online's and Mac Excel's output.
 *
 * The builder takes them from the Debian package when it is at hand, else keeps the copies committed in the corpus;
 * either way each file must have the SHA-256 below, so a committed copy is the package's file byte for byte.
 * To take them from the package again:
 *   apt-get download r-cran-openxlsx && dpkg-deb -x r-cran-openxlsx_4.2.5.2-1_amd64.deb /tmp/openxlsx
 *   OPENXLSX_EXTDATA=/tmp/openxlsx/usr/lib/R/site-library/openxlsx/extdata node scripts/corpus/build.mjs
 * (or install r-cran-openxlsx: /usr/lib/R/site-library/openxlsx/extdata is looked in by default).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const OPENXLSX_PACKAGE = {
  name: 'r-cran-openxlsx',
  version: '4.2.5.2-1',
  distribution: 'Debian 12 bookworm',
  folder: 'usr/lib/R/site-library/openxlsx/extdata',
  upstream: 'openxlsx (Philipp Schauberger, Alexander Walker et al.), https://github.com/ycphs/openxlsx',
  // Both as the package says them: its copyright file and the upstream DESCRIPTION it installs disagree.
  licence:
    'debian/copyright: "Files: * Copyright: 2014-2018 Alexander Walker License: GPL-3"; ' +
    'usr/lib/R/site-library/openxlsx/DESCRIPTION: "License: MIT + file LICENSE" (the LICENSE file is not installed)',
};

const DEFAULT_EXTDATA = join('/', OPENXLSX_PACKAGE.folder);

/**
 * Each file: its name in the corpus, its name in the package, its SHA-256, what docProps/app.xml says wrote it
 * (Application and AppVersion), and what it exercises.
 */
export const PUBLIC_WORKBOOKS = [
  {
    file: 'openxlsx-excel2013-active-second.xlsx',
    original: 'loadExample.xlsx',
    sha256: '2c35b3360e5cbdbaaebe5d39d5d64d41a31cee45d9df0a4fdfea3b0742afa6dd',
    application: 'Microsoft Excel 15.0300 (Excel 2013)',
    made: 'four visible worksheets, the second the active tab, of General fractions of 16 digits (shown 0,021211775); images, charts, tables, pivot tables, a slicer',
  },
  {
    file: 'openxlsx-excel-online-tabs.xlsx',
    original: 'ColorTabs3.xlsx',
    sha256: '2396eb65233d06193ab58413b81e1c34e0b872de19ee2e86f5306b72b42d2259',
    application: 'Microsoft Excel Online 16.0300',
    made: 'Excel Online: a red tab, the second sheet the active tab, a hidden third sheet',
  },
  {
    file: 'openxlsx-excel2016-sheet-names.xlsx',
    original: 'namedRegions2.xlsx',
    sha256: '56a854470dbde6f2624f8cccb76cf4e577c5b787cae08f24df2d7cb803b481e8',
    application: 'Microsoft Excel 16.0300',
    made: 'a sheet name with spaces, defined names (per sheet and global) in the workbook, a custom properties part',
  },
  {
    file: 'openxlsx-excel2013-formats.xlsx',
    original: 'read_failure_test.xlsx',
    sha256: '33f339dfbdca6323dc987501985ad320a449e37e4ff83c2b5e27054c355c098d',
    application: 'Microsoft Excel 15.0300 (Excel 2013)',
    made: 'frozen panes, a header row with gaps, numbers in format 0 (-4.5999999999999996 shows -5), text in formats 0 and @ ("-4.0", "NA"), dates in built-in 17 (Oca.85)',
  },
  {
    file: 'openxlsx-mac-excel-comment.xlsx',
    original: 'loadThreadComment.xlsx',
    sha256: '97c8dd108b87fce2ed64c796adc92133c0cbd94a159e40068727bc83bdcc1963',
    application: 'Microsoft Macintosh Excel 16.0300',
    made: 'Mac Excel: a threaded comment (persons, threadedComments and VML parts) on the only cell',
  },
  {
    file: 'openxlsx-mac-excel-pivots.xlsx',
    original: 'loadPivotTables.xlsx',
    sha256: 'fef9e207ef73200aa4506c2aab26df6b59c7e899e597389733b6f361f1064fab',
    application: 'Microsoft Macintosh Excel 16.0300',
    made: 'Mac Excel: five worksheets, the third the active tab, pivot tables and their caches, General fractions',
  },
  {
    file: 'openxlsx-writexl-inline-strings.xlsx',
    original: 'inlineStr.xlsx',
    sha256: 'ddb91b4066e625969b7fa2dcfb786e68cf770295bb321b22df439516822f7416',
    // libxlsxwriter writes this app.xml whatever made the file; the cells say "written with writexl::write_xlsx".
    application:
      'writexl (R, libxlsxwriter); docProps/app.xml says Microsoft Excel 12.0000 as libxlsxwriter writes it',
    made: 'inline strings only, a styled first row (the file openxlsx once failed to read)',
  },
];

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Each public workbook's bytes: from the Debian package's folder when it is there, else from `committed` (the
 * corpus as it was before the build), checked against the SHA-256 above.
 */
export function publicWorkbooks(committed, extdata = process.env.OPENXLSX_EXTDATA ?? DEFAULT_EXTDATA) {
  const fromPackage = existsSync(join(extdata, PUBLIC_WORKBOOKS[0].original));
  return PUBLIC_WORKBOOKS.map((workbook) => {
    const path = fromPackage ? join(extdata, workbook.original) : join(committed, workbook.file);
    if (!existsSync(path)) {
      throw new Error(
        `${workbook.file}: neither ${join(extdata, workbook.original)} (Debian's ${OPENXLSX_PACKAGE.name}) nor a committed copy in ${committed}. See scripts/corpus/public.mjs for how to take it from the package.`,
      );
    }
    const bytes = readFileSync(path);
    if (sha256(bytes) !== workbook.sha256) {
      throw new Error(
        `${path} is not ${OPENXLSX_PACKAGE.name} ${OPENXLSX_PACKAGE.version}'s ${workbook.original}`,
      );
    }
    return { ...workbook, bytes, from: fromPackage ? 'package' : 'committed copy' };
  });
}
