"""Renderers at the edge: workbooks and PDFs fed by selectors, no scoring."""
