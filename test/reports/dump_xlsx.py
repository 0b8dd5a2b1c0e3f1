"""Dumps an .xlsx as JSON with openpyxl (Debian's python3-openpyxl): an independent reader of what smsops writes.

Usage: /usr/bin/python3 test/reports/dump_xlsx.py FILE.xlsx
Prints {"sheets": [{"name", "rows": [[cell, ...]]}]}; each cell is {"t": data_type, "v": value, "f": number_format},
a date as its ISO text (openpyxl reads a number with a date format as a datetime), a formula cell with t == "f".
"""
import datetime
import json
import sys

import openpyxl


def cell_json(cell):
    value = cell.value
    if isinstance(value, (datetime.datetime, datetime.date)):
        value = value.isoformat()
    return {"t": cell.data_type, "v": value, "f": cell.number_format}


def main(path):
    book = openpyxl.load_workbook(path, data_only=False)
    sheets = []
    for sheet in book.worksheets:
        rows = [[cell_json(c) for c in row] for row in sheet.iter_rows()]
        sheets.append({"name": sheet.title, "rows": rows})
    json.dump({"sheets": sheets}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1])
