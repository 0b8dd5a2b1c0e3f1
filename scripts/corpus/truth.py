"""The truth of each corpus file, read by a reader that is not the app's: openpyxl for workbooks, Python's csv
module for CSV. Writes <file>.truth.json into OUTDIR for every file manifest.json gives a reader.

Usage: truth.py CORPUS_DIR OUTDIR

A workbook's truth: its sheets in tab order (name, worksheet or chartsheet, visible/hidden/veryHidden), the
active tab, the date system, and every non-empty cell of each worksheet as openpyxl gives it with data_only=True:
text as it is stored, numbers, dates as ISO text, with the cell's number format (openpyxl names a built-in one
by its en-US code: 14 is "mm-dd-yy") and the built-in id. openpyxl 3.0 leaves `_xHHHH_` escapes in shared
strings as they are. A CSV's truth: its records (first line and fields), decoded with the encoding the manifest
names.
"""
import csv
import datetime
import io
import json
import sys
from pathlib import Path

from openpyxl import load_workbook
from openpyxl.chartsheet import Chartsheet
from openpyxl.styles.numbers import BUILTIN_FORMATS_REVERSE

corpus = Path(sys.argv[1])
out = Path(sys.argv[2])


def cell_value(value):
    if isinstance(value, bool):
        return "bool", value
    if isinstance(value, (int, float)):
        return "number", value
    if isinstance(value, datetime.datetime):
        return "date", value.isoformat()
    if isinstance(value, datetime.date):
        return "date", datetime.datetime.combine(value, datetime.time()).isoformat()
    if isinstance(value, datetime.time):
        return "time", value.isoformat()
    if isinstance(value, datetime.timedelta):
        return "duration", value.total_seconds()
    return "text", str(value)


def workbook_truth(path):
    wb = load_workbook(path, data_only=True)
    sheets = []
    cells = {}
    for sheet in wb._sheets:
        kind = "chartsheet" if isinstance(sheet, Chartsheet) else "worksheet"
        sheets.append({"name": sheet.title, "kind": kind, "state": sheet.sheet_state})
        if kind != "worksheet":
            continue
        found = []
        for row in sheet.iter_rows():
            for cell in row:
                if cell.value is None or cell.value == "":
                    continue
                kind_of, value = cell_value(cell.value)
                found.append(
                    {
                        "row": cell.row,
                        "column": cell.column,
                        "type": kind_of,
                        "value": value,
                        "format": cell.number_format,
                        # A built-in format's id (0-49, shown in the reader's locale: 14 is its short date), or
                        # None for a custom code. openpyxl itself takes a custom code equal to a built-in's as it.
                        "builtin": BUILTIN_FORMATS_REVERSE.get(cell.number_format),
                    }
                )
        cells[sheet.title] = found
    return {
        "reader": "openpyxl",
        "sheets": sheets,
        "active": wb.active.title if wb.active is not None else None,
        "epoch": "1904" if wb.epoch.year == 1904 else "1900",
        "cells": cells,
    }


def csv_truth(path, encoding, delimiter, skip_lines):
    text = path.read_bytes().decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = io.StringIO(text, newline="")
    for _ in range(skip_lines):
        lines.readline()
    reader = csv.reader(lines, delimiter=delimiter)
    records = []
    line = skip_lines + 1
    for fields in reader:
        if any(f.strip() for f in fields):
            records.append({"line": line, "fields": fields})
        line = skip_lines + reader.line_num + 1
    return {"reader": "csv", "encoding": encoding, "delimiter": delimiter, "records": records}


manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
for entry in manifest:
    truth = entry["truth"]
    path = corpus / entry["file"]
    if truth["reader"] == "openpyxl":
        result = workbook_truth(path)
    elif truth["reader"] == "csv":
        result = csv_truth(path, truth["encoding"], truth["delimiter"], truth.get("skipLines", 0))
    else:
        continue
    (out / f"{entry['file']}.truth.json").write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
