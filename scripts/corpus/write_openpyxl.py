"""Recipient workbooks as openpyxl writes them, one per quirk of issue 28 (see scripts/corpus/build.mjs).

Usage: write_openpyxl.py SPEC.json OUTDIR. SPEC is scripts/corpus/recipients.mjs as JSON (build.mjs writes it).
"""
import datetime
import json
import sys
from pathlib import Path

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.utils.datetime import CALENDAR_MAC_1904

# Fixed document times: a rebuilt file differs from the committed one only where openpyxl itself varies.
FIXED = datetime.datetime(2024, 3, 1, 9, 0, 0)

spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
out = Path(sys.argv[2])
RECIPIENTS = spec["recipients"]
HEADER = spec["header"]


def workbook():
    wb = Workbook()
    wb.properties.creator = "smsops corpus"
    wb.properties.created = FIXED
    wb.properties.modified = FIXED
    return wb


def when(r):
    return datetime.datetime.fromisoformat(r["appointment"])


def write_table(ws, top=1, left=1, date_format=14):
    """The recipient table with its header at (top, left): built-in date formats 14 and 22, amounts #,##0.00."""
    for c, name in enumerate(HEADER):
        ws.cell(row=top, column=left + c, value=name)
    for i, r in enumerate(RECIPIENTS):
        row = top + 1 + i
        values = [r["name"], r["landline"], r["mobile"], r["tc"], when(r), when(r), r["amount"], r["city"]]
        for c, value in enumerate(values):
            ws.cell(row=row, column=left + c, value=value)
        ws.cell(row=row, column=left + 4).number_format = "mm-dd-yy" if date_format == 14 else date_format
        ws.cell(row=row, column=left + 5).number_format = "m/d/yy h:mm"
        ws.cell(row=row, column=left + 6).number_format = "#,##0.00"
        # Identity numbers are typed as text in real lists, else Excel shows 1,23457E+10.
        ws.cell(row=row, column=left + 3).number_format = "@"


def decoy(ws):
    """A sheet of people who must not be sent to: an old list kept in a hidden or first sheet."""
    ws.append(["Ad Soyad", "Cep Telefonu"])
    for p in spec["notRecipients"]:
        ws.append([p["name"], p["mobile"]])


def save(wb, name):
    wb.save(out / name)


# Built-in formats 14 ("mm-dd-yy" is openpyxl's name for it) and 22, amounts, landline before mobile.
wb = workbook()
wb.active.title = "Liste"
write_table(wb.active)
save(wb, "openpyxl-basic.xlsx")

# The 1904 date system (Excel for Mac's old default), with a custom day-first format.
wb = workbook()
wb.epoch = CALENDAR_MAC_1904
wb.active.title = "Liste"
write_table(wb.active, date_format="dd.mm.yyyy")
save(wb, "openpyxl-1904.xlsx")

# A hidden, and a very hidden, first sheet holding an old list.
for state in ("hidden", "veryHidden"):
    wb = workbook()
    old = wb.active
    old.title = "Eski Liste"
    decoy(old)
    ws = wb.create_sheet("Liste")
    write_table(ws)
    old.sheet_state = state
    wb.active = 1
    save(wb, f"openpyxl-{state.lower()}-first.xlsx")

# A chart sheet in first place, charting the amounts of the list.
wb = workbook()
ws = wb.active
ws.title = "Liste"
write_table(ws)
chart = BarChart()
chart.add_data(Reference(ws, min_col=7, min_row=1, max_row=len(RECIPIENTS) + 1), titles_from_data=True)
cs = wb.create_chartsheet("Grafik", 0)
cs.add_chart(chart)
wb.active = 1
save(wb, "openpyxl-chartsheet-first.xlsx")

# Three visible worksheets, the second one the active tab: the person saved while looking at it.
wb = workbook()
summary = wb.active
summary.title = "Özet"
summary.append(["Toplam kişi", len(RECIPIENTS)])
summary.append(["Sorumlu", "0530 000 00 03"])
ws = wb.create_sheet("Liste")
write_table(ws)
notes = wb.create_sheet("Notlar")
decoy(notes)
wb.active = 1
save(wb, "openpyxl-active-second.xlsx")

# A merged title row and a blank row above the header.
wb = workbook()
ws = wb.active
ws.title = "Liste"
ws["A1"] = "Mart 2024 Randevu Listesi"
ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=len(HEADER))
write_table(ws, top=3)
save(wb, "openpyxl-title-merged.xlsx")

# Blank rows and columns before the data: the table starts at C4.
wb = workbook()
ws = wb.active
ws.title = "Liste"
write_table(ws, top=4, left=3)
save(wb, "openpyxl-offset.xlsx")

# "Mobil No" of number cells, after an identity-number column of eleven digits; a debt in the General format
# (Turkish Excel shows 1087.5 as 1087,5).
wb = workbook()
ws = wb.active
ws.title = "Liste"
ws.append(["TC Kimlik No", "Adı Soyadı", "Ev Telefonu", "Mobil No", "Borç"])
for r in RECIPIENTS:
    mobile = int(r["msisdn"][2:])
    ws.append([int(r["tc"]), r["name"], r["landline"], mobile, r["amount"]])
save(wb, "openpyxl-mobil-no.xlsx")
