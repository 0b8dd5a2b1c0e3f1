/**
 * Recipient workbooks as the two npm writers make them: exceljs (the app's own dependency, what many Node
 * exporters use) and SheetJS (the registry's `xlsx`, what many browser exporters use).
 * Usage: node scripts/corpus/write-node.mjs OUTDIR
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import XLSX from 'xlsx';
import { HEADER, NOT_RECIPIENTS, RECIPIENTS } from './recipients.mjs';

const out = process.argv[2];
const FIXED = new Date(Date.UTC(2024, 2, 1, 9, 0, 0));

// A wall-clock time as the writers take it: a Date whose UTC fields are the time (no zone in a sheet).
const when = (r) => new Date(`${r.appointment}Z`);
const row = (r) => [r.name, r.landline, r.mobile, r.tc, when(r), when(r), r.amount, r.city];

async function writeExceljs() {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'smsops corpus';
  wb.created = FIXED;
  wb.modified = FIXED;
  // exceljs: a hidden first sheet and a title row merged over the table.
  const old = wb.addWorksheet('Eski Liste', { state: 'hidden' });
  old.addRow(['Ad Soyad', 'Cep Telefonu']);
  for (const p of NOT_RECIPIENTS) old.addRow([p.name, p.mobile]);
  const ws = wb.addWorksheet('Liste');
  ws.addRow(['Randevu hatırlatma listesi']);
  ws.mergeCells(1, 1, 1, HEADER.length);
  ws.addRow(HEADER);
  for (const r of RECIPIENTS) ws.addRow(row(r));
  ws.getColumn(4).numFmt = '@';
  ws.getColumn(5).numFmt = 'dd.mm.yyyy';
  ws.getColumn(6).numFmt = 'dd.mm.yyyy hh:mm';
  ws.getColumn(7).numFmt = '#,##0.00';
  wb.views = [{ activeTab: 1 }];
  writeFileSync(join(out, 'exceljs-hidden-first-title.xlsx'), Buffer.from(await wb.xlsx.writeBuffer()));
}

function writeSheetjs() {
  const ws = XLSX.utils.aoa_to_sheet([HEADER, ...RECIPIENTS.map(row)], { cellDates: true });
  for (let i = 0; i < RECIPIENTS.length; i++) {
    const at = (c) => ws[XLSX.utils.encode_cell({ r: i + 1, c })];
    at(4).z = 'dd.mm.yyyy';
    at(5).z = 'm/d/yy h:mm';
    at(6).z = '#,##0.00';
  }
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Liste');
  wb.Props = { Author: 'smsops corpus', CreatedDate: FIXED };
  writeFileSync(
    join(out, 'sheetjs.xlsx'),
    XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }),
  );
}

await writeExceljs();
writeSheetjs();
