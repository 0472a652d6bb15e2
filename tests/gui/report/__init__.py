"""Tests of the PDF export (gui/report/)."""
