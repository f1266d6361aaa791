"""Paper and spreadsheets: PDFs (score sheets, seating, table cards,
standings, certificates), the results workbook, the Games sheet import, and
the background jobs that make the long ones."""
