"""Recipient workbooks as xlsxwriter writes them: shared strings (with `_x000D_` for a carriage return), and
inline strings in its constant_memory mode. Usage: write_xlsxwriter.py SPEC.json OUTDIR."""
import datetime
import json
import sys
from pathlib import Path

import xlsxwriter

FIXED = datetime.datetime(2024, 3, 1, 9, 0, 0)

spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
out = Path(sys.argv[2])
RECIPIENTS = spec["recipients"]
HEADER = spec["header"] + ["Adres"]


def write(name, options):
    wb = xlsxwriter.Workbook(str(out / name), options)
    wb.set_properties({"author": "smsops corpus", "created": FIXED})
    day_first = wb.add_format({"num_format": "dd.mm.yyyy"})
    date_time = wb.add_format({"num_format": 22})
    amount = wb.add_format({"num_format": "#,##0.00"})
    text = wb.add_format({"num_format": "@"})
    ws = wb.add_worksheet("Liste")
    # constant_memory writes row by row: everything in order.
    ws.write_row(0, 0, HEADER)
    for i, r in enumerate(RECIPIENTS, start=1):
        when = datetime.datetime.fromisoformat(r["appointment"])
        ws.write_string(i, 0, r["name"])
        ws.write_string(i, 1, r["landline"])
        ws.write(i, 2, r["mobile"])
        ws.write_string(i, 3, r["tc"], text)
        ws.write_datetime(i, 4, when, day_first)
        ws.write_datetime(i, 5, when, date_time)
        ws.write_number(i, 6, r["amount"], amount)
        ws.write_string(i, 7, r["city"])
        # A carriage return in text: stored as _x000D_, the escape every xlsx reader must undo.
        ws.write_string(i, 8, f"{r['city']} Merkez\r\nNo: {i}")
    wb.close()


write("xlsxwriter-basic.xlsx", {})
write("xlsxwriter-inline-strings.xlsx", {"constant_memory": True})
